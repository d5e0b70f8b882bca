/**
 * Search that forgives and understands shoppers, through HTTP and the generated SDK: typos
 * (Meilisearch's budget), the last word as a prefix, prices and price words in the query,
 * attribute words, tight matching and facets.
 */
import { createClient, searchProducts, type Client } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let client: Client;

const catalog = [
  product({ id: 'chair-oak', title: 'Oak dining chair', category: 'Furniture > Chairs', vendor: 'Nordholm', price: 49 }),
  product({ id: 'chair-kids', title: "Children's desk chair", category: 'Furniture > Chairs', vendor: 'Nordholm', price: 25 }),
  product({ id: 'billy', title: 'BILLY Bookcase', category: 'Furniture > Bookcases', vendor: 'Hylla', price: 60, attributes: { color: ['White'] } }),
  product({ id: 'hemnes', title: 'HEMNES Bookcase', category: 'Furniture > Bookcases', vendor: 'Hylla', price: 250, attributes: { color: ['Black-brown'] } }),
  product({ id: 'pax', title: 'PAX Wardrobe', category: 'Furniture > Wardrobes', vendor: 'Hylla', price: 400, attributes: { color: ['White'] } }),
  product({ id: 'brimnes', title: 'BRIMNES Wardrobe', category: 'Furniture > Wardrobes', vendor: 'Hylla', price: 300, attributes: { color: ['Oak'] } }),
  product({ id: 'klippan', title: 'KLIPPAN Two-seat sofa', category: 'Furniture > Sofas', vendor: 'Sofia', price: 199 }),
  product({ id: 'kivik', title: 'KIVIK Three-seat sofa', category: 'Furniture > Sofas', vendor: 'Sofia', price: 1097 }),
  product({ id: 'micke', title: 'MICKE Desk', category: 'Furniture > Desks', vendor: 'Nordholm', price: 79 }),
  product({ id: 'bekant', title: 'BEKANT Desk', category: 'Furniture > Desks', vendor: 'Nordholm', price: 1413 }),
  product({ id: 'organiser', title: 'Desktop organiser', category: 'Office', vendor: 'Nordholm', price: 15 }),
  product({ id: 'lumberjack', title: 'Lumberjack shirt', category: 'Clothing', vendor: 'Woods', price: 35 }),
  product({ id: 'lumberjock', title: 'Lumberjock shirt', category: 'Clothing', vendor: 'Woods', price: 35 }),
  product({ id: 'camera', title: 'Camera x1000', category: 'Electronics', vendor: 'Optix', price: 899 }),
  product({ id: 'mug-white', title: 'White mug', category: 'Kitchen', vendor: 'Krus', price: 6, attributes: { color: ['White'] } }),
  product({ id: 'lamp-white', title: 'White table lamp', category: 'Lighting', vendor: 'Lys', price: 30, attributes: { color: ['White'] } }),
  product({ id: 'towel-white', title: 'White bath towel', category: 'Bathroom', vendor: 'Krus', price: 12, attributes: { color: ['White'] } }),
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
  client = createClient({ baseUrl: gateway.url, headers: { 'X-ACP-API-Key': await gateway.createKey({ merchantIds: ['shop'] }) } });
});
afterAll(() => gateway?.close());

describe('typo tolerance', () => {
  it.each([
    ['chiar', ['chair-oak', 'chair-kids']],
    ['bookcse', ['billy', 'hemnes']],
    ['wardrobbe', ['pax', 'brimnes']],
  ])('finds %s with one typo (5–8 letters)', async (q, expected) => {
    const found = await ids({ q });
    expect(found.slice(0, expected.length).sort()).toEqual([...expected].sort());
  });

  it('allows two typos from 9 letters, ranking the 1-typo match above the 2-typo one', async () => {
    const found = await ids({ q: 'lumberjacc' });
    expect(found.slice(0, 2)).toEqual(['lumberjack', 'lumberjock']);
  });

  it('takes a word the catalog has as typed (no typo matches beside the exact ones)', async () => {
    const data = await search({ q: 'lumberjack', page_size: 100 });
    expect(data.items[0]?.id).toBe('lumberjack');
    expect(data.items.map((p) => p.id)).not.toContain('lumberjock');
  });

  it.each(['wxrdrobx', 'bxokcasx'])('forgives no second typo in a word of 5 to 8 letters: %s', async (q) => {
    expect(await ids({ q })).toEqual([]);
  });

  it.each(['sofs', 'dsek'])('forgives no typo in a word under 5 letters: %s', async (q) => {
    expect(await ids({ q })).toEqual([]);
  });

  it.each(['x1001', 'camera x2000'])('never fuzzes a number or model code: %s', async (q) => {
    const found = await ids({ q });
    if (q === 'x1001') expect(found).toEqual([]);
    else expect(found.slice(0, 1)).toEqual(['camera']);
    const data = await search({ q: 'x1001 x1002' });
    expect(data.total).toBe(0);
  });
});

describe('prefix search on the last word', () => {
  it.each([
    ['bil', 'billy'],
    ['bookc', 'billy'],
    ['klip', 'klippan'],
    ['oak dining ch', 'chair-oak'],
  ])('%s finds %s', async (q, id) => {
    expect(await ids({ q })).toContain(id);
  });

  it('ranks whole-word matches above prefix matches', async () => {
    const found = await ids({ q: 'desk', page_size: 100 });
    expect(found).toContain('organiser');
    expect(found.indexOf('organiser')).toBeGreaterThan(Math.max(found.indexOf('micke'), found.indexOf('bekant')));
  });

  it('only on the last word', async () => {
    const found = await ids({ q: 'klip desk', page_size: 100 });
    expect(found).not.toContain('klippan');
    expect(found).toEqual(await ids({ q: 'desk', page_size: 100 }));
    expect(await ids({ q: 'desk klip', page_size: 100 })).toContain('klippan');
  });
});

describe('query understanding', () => {
  it('reads a price in words as a bound, says so, and searches the rest', async () => {
    const data = await search({ q: 'sofa under $300', page_size: 100 });
    expect(data.items.map((p) => p.id)).toEqual(['klippan']);
    expect(data.total).toBe(1);
    expect(data.query_understanding).toEqual({ text: 'sofa', max_price: 300 });
  });

  it.each([
    ['sofa below 200', { max_price: 200 }, ['klippan']],
    ['sofa less than 1200 dollars', { max_price: 1200 }, ['klippan', 'kivik']],
    ['sofa over 1000', { min_price: 1000 }, ['kivik']],
    ['desk between 50 and 100', { min_price: 50, max_price: 100 }, ['micke']],
    ['desk 1000-2000', { min_price: 1000, max_price: 2000 }, ['bekant']],
  ])('%s', async (q, bounds, expected) => {
    const data = await search({ q, page_size: 100 });
    expect(data.query_understanding).toMatchObject(bounds);
    expect(data.items.map((p) => p.id).sort()).toEqual([...expected].sort());
  });

  it('lets explicit min_price and max_price win', async () => {
    const data = await search({ q: 'sofa under 300', max_price: 2000, page_size: 100 });
    expect(data.items.map((p) => p.id).sort()).toEqual(['kivik', 'klippan']);
    expect(data.query_understanding).toEqual({ text: 'sofa' });
    const contradicting = await search({ q: 'sofa over 1000', max_price: 500, page_size: 100 });
    expect(contradicting.items.map((p) => p.id)).toEqual(['klippan']);
    expect(contradicting.query_understanding?.min_price).toBeUndefined();
  });

  it('answers a query that is only a constraint with every product it allows', async () => {
    const data = await search({ q: 'under 30', page_size: 100 });
    const expected = catalog.filter((p) => p.price <= 30).map((p) => p.id);
    expect(data.total).toBe(expected.length);
    expect(data.items.map((p) => p.id).sort()).toEqual([...expected].sort());
    expect(data.query_understanding).toEqual({ text: '', max_price: 30 });
  });

  it('ranks cheaper products first for "cheap" and dearer ones for "premium"', async () => {
    const cheap = await search({ q: 'cheap desk' });
    expect(cheap.query_understanding).toEqual({ text: 'desk', price_preference: 'low' });
    expect(cheap.items.map((p) => p.id).indexOf('micke')).toBeLessThan(cheap.items.map((p) => p.id).indexOf('bekant'));
    const premium = await ids({ q: 'premium desk' });
    expect(premium.indexOf('bekant')).toBeLessThan(premium.indexOf('micke'));
    const byPrice = await search({ q: 'cheap', page_size: 100 });
    expect(byPrice.total).toBe(catalog.length);
    expect(byPrice.items[0]?.id).toBe('mug-white');
  });

  it('boosts products with an attribute value the query names, and says which', async () => {
    const data = await search({ q: 'white wardrobe', page_size: 100 });
    expect(data.items[0]?.id).toBe('pax');
    expect(data.items.map((p) => p.id)).toContain('brimnes');
    expect(data.query_understanding?.attributes).toEqual([{ name: 'color', value: 'White' }]);
  });

  it('ranks the product with the named attribute value first, though its keywords alone rank it second', async () => {
    // Both say "white" in their attributes; only ZETA's is a value (a colour). By keywords ALPHA is
    // ahead (a shorter attributes field, and first by title): the boost is what puts ZETA first.
    await gateway.importProducts('boost', [
      product({ id: 'zeta', title: 'ZETA Cabinet', category: 'Storage', price: 90, attributes: { color: ['White'], care: ['wipe it with a damp cloth, then dry it with a soft towel'] } }),
      product({ id: 'alpha', title: 'ALPHA Cabinet', category: 'Storage', price: 90, attributes: { care: ['looks good by a white wall'] } }),
    ]);
    const other = createClient({ baseUrl: gateway.url, headers: { 'X-ACP-API-Key': await gateway.createKey({ merchantIds: ['boost'] }) } });
    const ranked = async (q: string) => (await searchProducts({ client: other, query: { q } })).data!.items.map((p) => p.id);
    expect(await ranked('white cabinet')).toEqual(['zeta', 'alpha']);
    expect(await ranked('cabinet')).toEqual(['alpha', 'zeta']);
  });
});

describe('tight matching', () => {
  it('does not count a product that only shares a common word of the query', async () => {
    const data = await search({ q: 'white wardrobe', page_size: 100 });
    expect(data.items.map((p) => p.id)).not.toEqual(expect.arrayContaining(['mug-white']));
    expect(data.items.map((p) => p.id)).not.toEqual(expect.arrayContaining(['towel-white']));
    expect(data.total).toBe(data.items.length);
  });

  it.each(['chiar', 'bil', 'white wardrobe', 'cheap desk', 'sofa under 300'])('keeps similarity_score in [0, 1] and non-increasing: %s', async (q) => {
    const scores = (await search({ q, page_size: 100 })).items.map((p) => p.similarity_score!);
    for (const s of scores) {
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
});

describe('facets', () => {
  it('counts categories, brands and price bands over every match, not just the page', async () => {
    const data = await search({ q: 'chair desk', facets: ['category', 'brand', 'price'], page_size: 1 });
    expect(data.items).toHaveLength(1);
    const total = data.total;
    expect(data.facets?.category?.reduce((s, f) => s + f.count, 0)).toBe(total);
    expect(data.facets?.brand?.reduce((s, f) => s + f.count, 0)).toBe(total);
    expect(data.facets?.price?.buckets.reduce((s, b) => s + b.count, 0)).toBe(total);
    expect(data.facets?.category).toEqual(expect.arrayContaining([{ value: 'Furniture > Chairs', count: 2 }, { value: 'Furniture > Desks', count: 2 }]));
  });

  it('composes with the filters, and works without q', async () => {
    const data = await search({ facets: ['category', 'price'], max_price: 60, page_size: 2 });
    const expected = catalog.filter((p) => p.price <= 60);
    expect(data.total).toBe(expected.length);
    expect(data.facets?.category?.reduce((s, f) => s + f.count, 0)).toBe(expected.length);
    expect(data.facets?.price?.max).toBe(60);
    expect(data.facets?.brand).toBeUndefined();
    expect(data.query_understanding).toBeUndefined();
  });

  it('leaves facets out unless asked for', async () => {
    expect((await search({ q: 'chair' })).facets).toBeUndefined();
  });

  it.each(['colour', 'category,category'])('rejects facets=%s with 400', async (facets) => {
    const response = await fetch(`${gateway.url}/acp/products?q=chair&facets=${facets}`, { headers: { 'X-ACP-API-Key': await gateway.createKey({ merchantIds: ['shop'] }) } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_request', param: expect.stringMatching(/^facets/) });
  });
});
