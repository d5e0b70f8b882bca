/**
 * The behaviour every SearchEngine adapter owes (STYLE.md item 5): each adapter's test calls
 * `searchEngineContract` with a factory. Vectors here are small synthetic ones (8
 * dimensions), so the suite tests the engine, not an embedder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalize } from './embedder.js';
import type { SearchDocument, SearchEngine, SearchRequest } from './search-engine.js';

export const CONTRACT_DIMENSIONS = 8;

/** A unit vector pointing mostly along `axis`. */
export function axisVector(axis: number, wobble = 0): Float32Array {
  const v = new Float32Array(CONTRACT_DIMENSIONS).fill(0.02);
  v[axis % CONTRACT_DIMENSIONS] = 1;
  v[(axis + 1) % CONTRACT_DIMENSIONS] = wobble;
  return normalize(v);
}

function doc(merchantId: string, id: string, fields: Partial<SearchDocument>): SearchDocument {
  return { merchantId, id, title: id, description: '', vendor: 'Acme', category: 'Misc', tags: [], attributes: {}, price: 10, ...fields };
}

export const CONTRACT_DOCUMENTS: SearchDocument[] = [
  doc('m1', 'mug-travel', { title: 'Insulated travel mug', category: 'Kitchen > Drinkware', tags: ['Coffee', 'commute'], price: 12, vector: axisVector(0), description: 'Keeps drinks hot for hours' }),
  doc('m1', 'mug-plain', { title: 'Ceramic mug', category: 'Kitchen > Drinkware', tags: ['coffee'], price: 6, vector: axisVector(0, 0.5) }),
  doc('m1', 'chair-oak', { title: 'Oak chair', category: 'Furniture > Chairs', tags: ['wood', 'Seating'], price: 49.5, vector: axisVector(2) }),
  doc('m1', 'chair-steel', { title: 'Steel chair', category: 'Furniture > Chairs', tags: ['metal'], price: 80, vector: axisVector(2, 0.3) }),
  doc('m1', 'sofa-blue', { title: 'Blue sofa', category: 'Furniture > Sofas', tags: ['seating'], price: 499.99, vector: axisVector(3) }),
  doc('m1', 'lamp-desk', { title: 'Desk lamp', category: 'Lighting', tags: ['office'], price: 30, vector: axisVector(4), attributes: { colour: ['brass'] } }),
  doc('m1', 'thermos', { title: 'Vacuum flask', category: 'Outdoor > Camping', tags: [], price: 25, vector: axisVector(0, 0.2), description: 'Stainless steel bottle' }),
  doc('m2', 'secret-chair', { title: 'Chair of merchant two', category: 'Furniture > Chairs', tags: ['wood'], price: 5, vector: axisVector(2) }),
];

const request = (text: string, extra: Partial<SearchRequest> = {}): SearchRequest => ({ merchantId: 'm1', text, filters: {}, offset: 0, limit: 10, ...extra });

export function searchEngineContract(name: string, make: () => Promise<SearchEngine>, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip ?? false)(`SearchEngine contract: ${name}`, () => {
    let engine: SearchEngine;
    const ids = async (req: SearchRequest) => (await engine.search(req)).hits.map((h) => h.id);

    beforeAll(async () => {
      engine = await make();
      await engine.replaceMerchant('m1', []);
      await engine.replaceMerchant('m2', []);
      await engine.index(CONTRACT_DOCUMENTS);
    });
    afterAll(async () => {
      await engine?.replaceMerchant('m1', []);
      await engine?.replaceMerchant('m2', []);
      await engine?.close();
    });

    it('finds keyword matches, best first, with scores in [0, 1] that never increase', async () => {
      const result = await engine.search(request('oak chair'));
      expect(result.hits[0]?.id).toBe('chair-oak');
      expect(result.hits.map((h) => h.id)).toContain('chair-steel');
      const scores = result.hits.map((h) => h.score);
      for (const s of scores) expect(s).toBeGreaterThanOrEqual(0);
      for (const s of scores) expect(s).toBeLessThanOrEqual(1);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it('searches only the merchant it is asked for', async () => {
      expect(await ids(request('chair'))).not.toContain('secret-chair');
      expect(await ids(request('chair', { merchantId: 'm2' }))).toEqual(['secret-chair']);
      expect((await engine.search(request('chair', { merchantId: 'nobody' }))).total).toBe(0);
    });

    it('finds by meaning when the query vector is close and no word is shared', async () => {
      const result = await engine.search(request('something to keep my tea warm on the train', { vector: axisVector(0, 0.1) }));
      expect(result.mode).toBe('hybrid');
      expect(result.hits.map((h) => h.id).slice(0, 3).sort()).toEqual(['mug-plain', 'mug-travel', 'thermos']);
    });

    it('ranks by keywords alone without a query vector', async () => {
      const result = await engine.search(request('flask'));
      expect(result.mode).toBe('keyword');
      expect(result.hits.map((h) => h.id)).toEqual(['thermos']);
    });

    it.each([
      [{ category: 'CHAIRS' }, ['chair-oak', 'chair-steel']],
      [{ category: 'furniture > ch' }, ['chair-oak', 'chair-steel']],
      [{ tag: 'seating' }, ['chair-oak']],
      [{ tag: 'seat' }, []],
      [{ minPrice: 80 }, ['chair-steel']],
      [{ maxPrice: 49.5 }, ['chair-oak']],
      [{ minPrice: 49.5, maxPrice: 80 }, ['chair-oak', 'chair-steel']],
    ])('applies filters %o before ranking, and total counts only what passes', async (filters, expected) => {
      const result = await engine.search(request('chair', { filters, vector: axisVector(2) }));
      expect(result.hits.map((h) => h.id).sort()).toEqual([...expected].sort());
      expect(result.total).toBe(expected.length);
    });

    it('pages without overlap and keeps total stable', async () => {
      // A blank text lists every product of the merchant (what a query that is only a constraint searches).
      const all = await engine.search(request('', { limit: 100 }));
      expect(all.total).toBe(7);
      const pages = await Promise.all([0, 1, 2, 3].map((p) => engine.search(request('', { offset: p * 2, limit: 2 }))));
      expect(new Set(pages.map((p) => p.total))).toEqual(new Set([all.total]));
      const paged = pages.flatMap((p) => p.hits.map((h) => h.id));
      expect(new Set(paged).size).toBe(paged.length);
      expect(paged).toEqual(all.hits.slice(0, 8).map((h) => h.id));
    });

    it('forgives one typo in a word of 5 to 8 letters, none under 5, none in a word with a digit', async () => {
      expect((await ids(request('ceramc'))).sort()).toEqual(['mug-plain']);
      expect(await ids(request('chiar'))).toEqual(expect.arrayContaining(['chair-oak', 'chair-steel']));
      expect(await ids(request('lanp'))).toEqual([]);
      expect(await ids(request('insulated4'))).toEqual([]);
    });

    it('reads the last word as the start of a longer one (search as you type)', async () => {
      expect(await ids(request('blue so'))).toEqual(['sofa-blue']);
      expect(await ids(request('vacu'))).toEqual(['thermos']);
    });

    it('counts facets over every match, not just the page, and composes them with the filters', async () => {
      const result = await engine.search(request('chair', { limit: 1, facets: ['category', 'brand', 'price'] }));
      expect(result.total).toBe(2);
      expect(result.facets).toEqual({
        category: [{ value: 'Furniture > Chairs', count: 2 }],
        brand: [{ value: 'Acme', count: 2 }],
        price: { min: 49.5, max: 80, buckets: [{ from: 25, to: 50, count: 1 }, { from: 50, to: 100, count: 1 }] },
      });
      const filtered = await engine.search(request('', { limit: 0, filters: { maxPrice: 30 }, facets: ['price'] }));
      expect(filtered.total).toBe(4);
      expect(filtered.facets?.price?.buckets).toEqual([{ from: 0, to: 10, count: 1 }, { from: 10, to: 25, count: 1 }, { from: 25, to: 50, count: 2 }]);
    });

    it('replaces a document indexed again under the same id, and removes documents', async () => {
      await engine.index([{ ...CONTRACT_DOCUMENTS[5]!, title: 'Brass reading light' }]);
      expect(await ids(request('reading'))).toEqual(['lamp-desk']);
      expect(await ids(request('desk'))).toEqual([]);
      await engine.remove('m1', ['lamp-desk']);
      expect(await ids(request('reading'))).toEqual([]);
      await engine.index([CONTRACT_DOCUMENTS[5]!]);
    });

    it("replaces one merchant's documents without touching another's", async () => {
      await engine.replaceMerchant('m2', [doc('m2', 'new-two', { title: 'Garden bench', vector: axisVector(6) })]);
      expect(await ids(request('bench', { merchantId: 'm2' }))).toEqual(['new-two']);
      expect(await ids(request('chair', { merchantId: 'm2' }))).toEqual([]);
      expect(await ids(request('oak chair'))).toContain('chair-oak');
    });
  });
}
