/**
 * Hybrid search through the whole gateway: the generated SDK over HTTP, the embedded engine
 * built from the database, imports followed by the index.
 */
import { createClient, searchProducts, type Client } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportError, importCatalog } from '../src/catalog/import/catalog-importer.js';
import { catalogFile, product } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let client: Client;

const catalog = [
  product({ id: 'mug', title: 'Insulated travel mug', category: 'Kitchen > Drinkware', tags: ['coffee', 'Outdoor'], price: 12, description: 'Double-walled stainless steel, leak-proof lid' }),
  product({ id: 'cup', title: 'Porcelain espresso cup', category: 'Kitchen > Drinkware', tags: ['coffee'], price: 4 }),
  product({ id: 'flask', title: 'Vacuum flask, 1 l', category: 'Outdoor > Camping', tags: ['outdoor'], price: 25 }),
  product({ id: 'chair', title: 'Oak dining chair', category: 'Furniture > Chairs', tags: ['wood'], price: 49.5 }),
  product({ id: 'stool', title: 'Bar stool with backrest', category: 'Furniture > Chairs', tags: ['wood'], price: 30 }),
  product({ id: 'sofa', title: 'Three-seat sofa', category: 'Furniture > Sofas', tags: ['living room'], price: 499 }),
  product({ id: 'lamp', title: 'Brass desk lamp', category: 'Lighting', tags: ['office'], price: 30 }),
  product({ id: 'kettle', title: 'Electric kettle', category: 'Kitchen > Appliances', tags: ['tea'], price: 30 }),
];

const search = async (query: Record<string, unknown>) => {
  const { data, response } = await searchProducts({ client, query: query as never });
  expect(response!.status).toBe(200);
  return data!;
};
const ids = async (query: Record<string, unknown>) => (await search(query)).items.map((p) => p.id);

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', catalog);
  await gateway.importProducts('other', [product({ id: 'other-mug', title: 'Travel mug of another shop', price: 1 })]);
  client = createClient({ baseUrl: gateway.url, headers: { 'X-ACP-API-Key': await gateway.createKey({ merchantIds: ['shop'] }) } });
});
afterAll(() => gateway?.close());

describe('GET /acp/products?q= (hybrid search)', () => {
  it('finds the travel mug for "something to keep my coffee hot on the commute"', async () => {
    const data = await search({ q: 'something to keep my coffee hot on the commute' });
    expect(data.items[0]?.id).toBe('mug');
    const scores = data.items.map((p) => p.similarity_score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const s of scores) expect(s).toBeGreaterThan(0);
    for (const s of scores) expect(s).toBeLessThanOrEqual(1);
  });

  it('finds by meaning when no word is shared', async () => {
    expect((await ids({ q: 'couch' }))[0]).toBe('sofa');
    expect(['mug', 'flask']).toContain((await ids({ q: 'thermos' }))[0]);
  });

  it('never shows another merchant\'s products', async () => {
    expect(await ids({ q: 'travel mug', page_size: 100 })).not.toContain('other-mug');
  });

  it('counts in total every match of q and the filters, the same on every page', async () => {
    const first = await search({ q: 'coffee mug cup', page_size: 2 });
    const second = await search({ q: 'coffee mug cup', page: 2, page_size: 2 });
    const all = await search({ q: 'coffee mug cup', page_size: 100 });
    expect(first.total).toBe(all.total);
    expect(second.total).toBe(all.total);
    expect(all.items).toHaveLength(all.total);
    const paged = [...first.items, ...second.items].map((p) => p.id);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged).toEqual(all.items.slice(0, 4).map((p) => p.id));
  });

  it.each([
    [{ q: 'chair', category: 'CHAIRS' }, ['chair', 'stool']],
    [{ q: 'coffee', tag: 'OUTDOOR' }, ['mug']],
    [{ q: 'coffee', max_price: 12 }, ['cup', 'mug']],
    [{ q: 'coffee', min_price: 12, max_price: 12 }, ['mug']],
    [{ q: 'lamp', category: 'kitchen' }, []],
  ])('applies the filters before ranking: %o', async (query, expected) => {
    const data = await search({ ...query, page_size: 100 });
    expect(data.items.map((p) => p.id).sort()).toEqual(expected);
    expect(data.total).toBe(expected.length);
  });

  it('treats a q of only whitespace as no q: every product by title then id, no score', async () => {
    const data = await search({ q: '   ', page_size: 100 });
    expect(data.total).toBe(catalog.length);
    expect(data.items.map((p) => p.title)).toEqual([...catalog.map((p) => p.title)].sort());
    expect(data.items.every((p) => p.similarity_score === undefined)).toBe(true);
  });

  it('reads + in the query string as a space', async () => {
    const response = await fetch(`${gateway.url}/acp/products?q=travel+mug`, { headers: { 'X-ACP-API-Key': await gateway.createKey({ merchantIds: ['shop'] }) } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { items: { id: string }[] }).items[0]?.id).toBe('mug');
  });

  it('searches the first 10 searched words of a long q and ignores the rest, without an error', async () => {
    const words = Array.from({ length: 83 }, (_, i) => (i === 0 ? 'coffee' : i === 10 ? 'lamp' : `zq${i}`));
    const long = await search({ q: words.join(' '), page_size: 100 });
    const first = await search({ q: words.slice(0, 10).join(' '), page_size: 100 });
    expect(long.query_understanding?.text).toBe(words.slice(0, 10).join(' '));
    expect(long.items.map((p) => [p.id, p.similarity_score])).toEqual(first.items.map((p) => [p.id, p.similarity_score]));
    expect(long.items.map((p) => p.id)).not.toContain('lamp');
  });

  it.each([
    [{ q: 'x'.repeat(501) }, 'q'],
    [{ q: 'mug', page_size: 101 }, 'page_size'],
    [{ q: 'mug', min_price: 10, max_price: 5 }, 'min_price'],
  ])('rejects %o with 400 invalid_request', async (query, param) => {
    const { error, response } = await searchProducts({ client, query: query as never });
    expect(response!.status).toBe(400);
    expect(error).toMatchObject({ code: 'invalid_request', param });
  });
});

describe('the index follows the catalog', () => {
  it('sees an import at once: new products, and updated ones under their new words', async () => {
    await gateway.importProducts('shop', [
      product({ id: 'teapot', title: 'Cast iron teapot', category: 'Kitchen > Tea', price: 40 }),
      product({ id: 'lamp', title: 'Brass reading light', category: 'Lighting', tags: ['office'], price: 30 }),
    ]);
    expect((await ids({ q: 'teapot' }))[0]).toBe('teapot');
    expect((await ids({ q: 'reading light' }))[0]).toBe('lamp');
    expect(await ids({ q: 'desk' })).not.toContain('lamp');
  });

  it('is left untouched by an import that fails midway', async () => {
    const before = await search({ q: 'mug coffee', page_size: 100 });
    const file = catalogFile([product({ id: 'mug', title: 'Renamed mug' }), product({ id: 'new-one', title: 'Coffee grinder' }), '{"id": "broken",', product({ id: 'x' })]);
    await expect(importCatalog(gateway.db, 'shop', file)).rejects.toBeInstanceOf(ImportError);
    const after = await search({ q: 'mug coffee', page_size: 100 });
    expect(after.items.map((p) => [p.id, p.title])).toEqual(before.items.map((p) => [p.id, p.title]));
    expect(after.total).toBe(before.total);
  });

  it('stores each product\'s vector with the name of the model that made it', async () => {
    const rows = await gateway.db.prisma.product.findMany({ where: { merchantId: 'shop' }, select: { embedding: true, embeddingModel: true } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.embedding?.byteLength).toBe(400);
      expect(row.embeddingModel).toBe(gateway.services.catalog.searchIndex.embedder.id);
    }
  });
});
