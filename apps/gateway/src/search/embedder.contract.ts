/** The behaviour every Embedder adapter owes; each adapter's test calls `embedderContract`. */
import { beforeAll, describe, expect, it } from 'vitest';
import { dot, type Embedder } from './embedder.js';

export function embedderContract(name: string, make: () => Promise<Embedder>): void {
  describe(`Embedder contract: ${name}`, () => {
    let embedder: Embedder;
    beforeAll(async () => {
      embedder = await make();
    });

    it('names its model and returns one vector of its dimensions per text, in order', async () => {
      expect(embedder.id).toEqual(expect.any(String));
      const texts = ['blue sofa', 'kitchen knife', 'running shoes'];
      const vectors = await embedder.embed(texts);
      expect(vectors).toHaveLength(3);
      for (const v of vectors) expect(v).toHaveLength(embedder.dimensions);
      const [again] = await embedder.embed(['kitchen knife']);
      expect(Array.from(again!)).toEqual(Array.from(vectors[1]!));
    });

    it('returns unit-length vectors', async () => {
      for (const v of await embedder.embed(['oak dining table', 'a lamp for reading'])) {
        expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 4);
      }
    });

    it('places related texts closer than unrelated ones', async () => {
      const [sofa, couch, laptop] = await embedder.embed(['sofa', 'couch', 'laptop']);
      expect(dot(sofa!, couch!)).toBeGreaterThan(dot(sofa!, laptop!) + 0.1);
      const [sneakers, running, knife] = await embedder.embed(['sneakers', 'running shoes', 'kitchen knife']);
      expect(dot(sneakers!, running!)).toBeGreaterThan(dot(sneakers!, knife!) + 0.1);
    });

    it('accepts an empty batch', async () => {
      expect(await embedder.embed([])).toEqual([]);
    });
  });
}
