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
