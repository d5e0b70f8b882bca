import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Embedder } from './embedder.js';
import { QueryEmbedder } from './query-embedder.js';

function memoryLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const fixed: Embedder = { id: 'fixed', dimensions: 2, embed: async (texts) => texts.map(() => new Float32Array([1, 0])) };

describe('QueryEmbedder', () => {
  it('embeds a query and caches it', async () => {
    let calls = 0;
    const counting: Embedder = { ...fixed, embed: async (texts) => (calls++, fixed.embed(texts)) };
    const q = new QueryEmbedder(counting, memoryLogger().logger);
    expect(Array.from((await q.embed('Sofa'))!)).toEqual([1, 0]);
    await q.embed(' sofa ');
    expect(calls).toBe(1);
  });

  it('hands the embedder the query bounded as the keyword search is: its first 10 searched words, each of at most 64 characters', async () => {
    const seen: string[] = [];
    const recording: Embedder = { ...fixed, embed: async (texts) => (seen.push(...texts), fixed.embed(texts)) };
    const q = new QueryEmbedder(recording, memoryLogger().logger);
    const words = Array.from({ length: 83 }, (_, i) => `word${i}`);
    await q.embed(words.join(' '));
    await q.embed(`oak ${'x'.repeat(500)}`);
    await q.embed('椅'.repeat(500));
    expect(seen).toEqual([words.slice(0, 10).join(' '), `oak ${'x'.repeat(64)}`, '椅'.repeat(64)]);
  });

  it.each([
    ['throws', { ...fixed, embed: async () => Promise.reject(new Error('endpoint down')) }],
    ['hangs', { ...fixed, embed: () => new Promise<Float32Array[]>(() => {}) }],
    ['answers a vector of the wrong length', { ...fixed, embed: async () => [new Float32Array(3)] }],
  ] as [string, Embedder][])('answers undefined (keyword search) and logs a warning when the embedder %s', async (_name, embedder) => {
    const { logger, lines } = memoryLogger();
    const q = new QueryEmbedder(embedder, logger, { timeoutMs: 30 });
    expect(await q.embed('sofa')).toBeUndefined();
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'query embedding failed; searching by keywords only' })]);
  });
});
