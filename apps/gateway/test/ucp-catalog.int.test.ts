/**
 * UCP 2026-04-08's catalog (search_catalog, lookup_catalog, get_product) over our real catalog
 * services and database: every answer valid against the official response schema, prices in minor
 * units, ids that checkout accepts, and each kind of bad input refused as the spec says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UcpCatalog } from '../src/ucp/catalog/ucp-catalog.js';
import { UcpError } from '../src/ucp/ucp-error.js';
import { product } from './support/fixtures.js';
import { apparel, expectValid, startCatalogWorld, type CatalogWorld } from './support/ucp-catalog.js';

const SHOP = 'ucp-shop';
const MIXED = 'ucp-mixed';

let world: CatalogWorld;
let catalog: UcpCatalog;
beforeAll(async () => {
  world = await startCatalogWorld({
    [SHOP]: apparel(),
    [MIXED]: [product({ id: 'usd-thing', price: 10 }), product({ id: 'jpy-thing', price: 1200, currency: 'JPY', variants: [] })],
  });
  catalog = new UcpCatalog({ catalog: world.services.catalog, itemsByIds: (m, ids) => world.services.checkout.itemsByIds(m, ids), storefrontUrl: 'https://shop.example' });
}, 60_000);
afterAll(() => world?.close());

type Body = Record<string, any>;
const search = async (body: unknown) => {
  const answer = (await catalog.search(SHOP, body)) as Body;
  expectValid(answer, 'catalog_search.json#/$defs/search_response');
  return answer;
};
const ids = (answer: Body) => (answer.products as Body[]).map((p) => p.id);
const refusal = async (work: Promise<unknown>) => {
  const error = await work.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UcpError);
  return error as UcpError;
};

describe('search_catalog', () => {
  it('finds products by a query through the hybrid search, mapped to UCP products in minor units', async () => {
    const answer = await search({ query: 'cotton t-shirt' });
    expect(answer.ucp).toEqual({ version: '2026-04-08', status: 'success', capabilities: { 'dev.ucp.shopping.catalog.search': [{ version: '2026-04-08' }] } });
    const tee = (answer.products as Body[]).find((p) => p.id === 'tee')!;
    expect(ids(answer)[0]).toBe('tee');
    expect(tee).toMatchObject({
      title: 'Cotton tee',
      description: { plain: 'A soft cotton t-shirt' },
      url: 'https://shop.example/products/tee',
      categories: [{ value: 'Apparel > Shirts', taxonomy: 'merchant' }],
      price_range: { min: { amount: 2500, currency: 'USD' }, max: { amount: 2750, currency: 'USD' } },
      media: [{ type: 'image', url: 'https://cdn.example/tee.jpg', alt_text: 'The tee' }, { type: 'image', url: 'https://cdn.example/tee-back.jpg' }],
      // Option axes in the order the catalog keeps a variant's attributes (stored as jsonb: shorter names first).
      options: [{ name: 'Size', values: [{ label: 'S' }, { label: 'M' }] }, { name: 'Color', values: [{ label: 'Red' }, { label: 'Blue' }] }],
      tags: ['cotton'],
    });
    expect(tee.variants.map((v: Body) => [v.id, v.price.amount, v.availability])).toEqual([
      ['tee-red-s', 2500, { available: true, status: 'in_stock' }],
      ['tee-red-m', 2500, { available: false, status: 'out_of_stock' }],
      ['tee-blue-s', 2750, { available: true, status: 'in_stock' }],
      ['tee-blue-m', 2750, { available: true, status: 'backorder' }],
    ]);
    expect(tee.variants[0]).toMatchObject({ sku: 'tee-red-s', url: 'https://shop.example/products/tee?variant=tee-red-s', options: [{ name: 'Size', label: 'S' }, { name: 'Color', label: 'Red' }] });
  });

  it('pages a filtered listing with opaque cursors until has_next_page is false', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: Body[] = [];
    do {
      const answer = await search({ filters: { categories: ['socks'] }, pagination: { limit: 5, ...(cursor ? { cursor } : {}) } });
      pages.push(answer.pagination);
      seen.push(...ids(answer));
      cursor = answer.pagination.cursor;
    } while (cursor);
    expect(pages.map((p) => [p.has_next_page, p.total_count])).toEqual([[true, 12], [true, 12], [false, 12]]);
    expect(pages[2]!.cursor).toBeUndefined();
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => `sock-${String(i + 1).padStart(2, '0')}`));
  });

  it('keeps its place when the limit changes between pages, and clamps a large limit', async () => {
    const first = await search({ filters: { categories: ['socks'] }, pagination: { limit: 5 } });
    const next = await search({ filters: { categories: ['socks'] }, pagination: { limit: 3, cursor: first.pagination.cursor } });
    expect(ids(next)).toEqual(['sock-06', 'sock-07', 'sock-08']);
    const all = await search({ filters: { categories: ['apparel'] }, pagination: { limit: 1000 } });
    expect(all.products).toHaveLength(14);
    expect(all.pagination).toEqual({ has_next_page: false, total_count: 14 });
  });

  it('ORs several categories, without a total it cannot know', async () => {
    const answer = await search({ filters: { categories: ['Kitchen', 'Pants', 'kitchen > mugs'] } });
    expect(ids(answer)).toEqual(['jeans', 'mug']);
    expect(answer.pagination).toEqual({ has_next_page: false });
  });

  it('bounds the price in minor units of context.currency, and says so when it cannot apply one', async () => {
    const answer = await search({ filters: { categories: ['apparel', 'kitchen'], price: { min: 950, max: 1000 } }, context: { currency: 'USD' } });
    expect(ids(answer)).toEqual(['mug', 'sock-06']);
    const implicit = await search({ filters: { price: { max: 999 } } });
    expect(ids(implicit)).toEqual(['mug', ...['01', '02', '03', '04', '05'].map((n) => `sock-${n}`)]);
    const euro = await search({ query: 'mug', filters: { price: { max: 100 } }, context: { currency: 'EUR', address_country: 'DE' } });
    expect(ids(euro)).toContain('mug');
    expect(euro.messages).toEqual([{ type: 'warning', code: 'filter_unsupported', path: '$.filters.price', content: expect.stringContaining('not priced in EUR') }]);
    const mixed = (await catalog.search(MIXED, { filters: { price: { max: 100 } } })) as Body;
    expect(mixed.messages[0].content).toContain('several currencies');
  });

  it('ignores a custom filter it does not support, with a warning naming it', async () => {
    const answer = await search({ query: 'mug', filters: { brand: 'Acme' } });
    expect(answer.messages).toEqual([expect.objectContaining({ type: 'warning', code: 'filter_unsupported', path: '$.filters.brand' })]);
  });

  it('answers an empty result without messages', async () => {
    const answer = await search({ filters: { categories: ['garden furniture'] } });
    expect(answer).toEqual({ ucp: expect.any(Object), products: [], pagination: { has_next_page: false, total_count: 0 } });
  });

  it.each([
    ['no input at all', {}, 'invalid_request'],
    ['a blank query alone', { query: '   ' }, 'invalid_request'],
    ['categories that are not a list', { filters: { categories: 'shirts' } }, 'invalid_request'],
    ['a negative price', { filters: { price: { min: -1 } } }, 'invalid_request'],
    ['a price min above its max', { filters: { price: { min: 500, max: 100 } } }, 'invalid_request'],
    ['a limit of 0', { query: 'tee', pagination: { limit: 0 } }, 'invalid_request'],
    ['eleven categories', { filters: { categories: Array.from({ length: 11 }, (_, i) => `c${i}`) } }, 'invalid_request'],
    ['a cursor that is not ours', { query: 'tee', pagination: { cursor: 'eyJwYWdlIjoxfQ==' } }, 'invalid_cursor'],
    ['a cursor of garbage', { query: 'tee', pagination: { cursor: '%%%' } }, 'invalid_cursor'],
  ])('refuses %s with 400 %s', async (_name, body, code) => {
    const error = await refusal(catalog.search(SHOP, body));
    expect([error.code, error.status2026_04_08]).toEqual([code, 400]);
  });

  it('refuses a cursor issued for another search', async () => {
    const first = await search({ filters: { categories: ['socks'] }, pagination: { limit: 5 } });
    const error = await refusal(catalog.search(SHOP, { filters: { categories: ['shirts'] }, pagination: { cursor: first.pagination.cursor } }));
    expect(error.code).toBe('invalid_cursor');
    expect(error.content).toContain('another search');
  });
});

describe('lookup_catalog', () => {
  const lookup = async (body: unknown) => {
    const answer = (await catalog.lookup(SHOP, body)) as Body;
    expectValid(answer, 'catalog_lookup.json#/$defs/lookup_response');
    return answer;
  };

  it('resolves product ids (featured variant) and variant ids (exact), once per product, and reports unknown ids', async () => {
    const answer = await lookup({ ids: ['tee', 'tee-blue-s', 'mug', 'nope', 'tee', 'tee-red-s'] });
    expect(answer.ucp.capabilities).toEqual({ 'dev.ucp.shopping.catalog.lookup': [{ version: '2026-04-08' }] });
    expect(ids(answer)).toEqual(['tee', 'mug']);
    const [tee, mug] = answer.products as Body[];
    expect(tee!.variants.map((v: Body) => [v.id, v.inputs])).toEqual([
      ['tee-red-s', [{ id: 'tee', match: 'featured' }, { id: 'tee-red-s', match: 'exact' }]],
      ['tee-blue-s', [{ id: 'tee-blue-s', match: 'exact' }]],
    ]);
    expect(mug!.variants).toEqual([expect.objectContaining({ id: 'mug', price: { amount: 950, currency: 'USD' }, inputs: [{ id: 'mug', match: 'featured' }] })]);
    expect(answer.messages).toEqual([{ type: 'info', code: 'not_found', content: 'nope' }]);
  });

  it('applies filters after resolution: a product whose variants the price excludes is left out', async () => {
    const answer = await lookup({ ids: ['tee', 'jeans'], filters: { price: { min: 2600 } }, context: { currency: 'USD' } });
    expect(answer.products.map((p: Body) => [p.id, p.variants.map((v: Body) => v.id)])).toEqual([['tee', ['tee-blue-s']], ['jeans', ['jeans-default']]]);
    const none = await lookup({ ids: ['tee'], filters: { categories: ['kitchen'] } });
    expect(none.products).toEqual([]);
  });

  it('answers ids of another merchant as not found', async () => {
    const answer = (await catalog.lookup(MIXED, { ids: ['tee', 'tee-red-s'] })) as Body;
    expect(answer.products).toEqual([]);
    expect(answer.messages.map((m: Body) => m.content)).toEqual(['tee', 'tee-red-s']);
  });

  it('refuses more than 50 distinct ids with 400 request_too_large, and an empty list as invalid', async () => {
    const error = await refusal(catalog.lookup(SHOP, { ids: Array.from({ length: 51 }, (_, i) => `id-${i}`) }));
    expect([error.code, error.status2026_04_08]).toEqual(['request_too_large', 400]);
    expect((await refusal(catalog.lookup(SHOP, { ids: [] }))).code).toBe('invalid_request');
    expect((await lookup({ ids: Array.from({ length: 60 }, () => 'tee') })).products).toHaveLength(1);
  });
});

describe('get_product', () => {
  const get = async (body: unknown) => {
    const answer = (await catalog.getProduct(SHOP, body)) as Body;
    expectValid(answer, answer.product ? 'catalog_lookup.json#/$defs/get_product_response' : 'types/error_response.json');
    return answer;
  };
  const signals = (answer: Body) => Object.fromEntries((answer.product.options as Body[]).map((o) => [o.name, o.values.map((v: Body) => `${v.label}:${v.exists ? (v.available ? 'yes' : 'sold out') : 'none'}`)]));

  it("shows a product id with its featured variant's selections and availability around them", async () => {
    const answer = await get({ id: 'tee' });
    expect(answer.product.selected).toEqual([{ name: 'Size', label: 'S' }, { name: 'Color', label: 'Red' }]);
    expect(answer.product.variants.map((v: Body) => v.id)).toEqual(['tee-red-s']);
    expect(signals(answer)).toEqual({ Color: ['Red:yes', 'Blue:yes'], Size: ['S:yes', 'M:sold out'] });
  });

  it('narrows by the selections asked, relaxing the least preferred one when nothing matches', async () => {
    const blue = await get({ id: 'tee', selected: [{ name: 'Color', label: 'Blue' }] });
    expect(blue.product.selected).toEqual([{ name: 'Color', label: 'Blue' }]);
    expect(blue.product.variants.map((v: Body) => v.id)).toEqual(['tee-blue-s', 'tee-blue-m']);
    expect(signals(blue)).toEqual({ Color: ['Red:yes', 'Blue:yes'], Size: ['S:yes', 'M:yes'] });
    const relaxed = await get({ id: 'tee', selected: [{ name: 'Color', label: 'Green' }, { name: 'Size', label: 'M' }], preferences: ['Size', 'Color'] });
    expect(relaxed.product.selected).toEqual([{ name: 'Size', label: 'M' }]);
    expect(relaxed.product.variants.map((v: Body) => v.id)).toEqual(['tee-blue-m', 'tee-red-m']);
  });

  it('puts a requested variant first, its options winning over selected', async () => {
    const answer = await get({ id: 'tee-red-m', selected: [{ name: 'Color', label: 'Blue' }] });
    expect(answer.product.selected).toEqual([{ name: 'Size', label: 'M' }, { name: 'Color', label: 'Red' }]);
    expect(answer.product.variants.map((v: Body) => v.id)).toEqual(['tee-red-m']);
  });

  it('shows a product without variants as itself, with no options', async () => {
    const answer = await get({ id: 'mug' });
    expect(answer.product).toMatchObject({ id: 'mug', variants: [{ id: 'mug', sku: 'mug', price: { amount: 950, currency: 'USD' } }] });
    expect(answer.product.options).toBeUndefined();
  });

  it('answers an unknown id (or one the filters exclude) with the 200 error envelope not_found', async () => {
    for (const body of [{ id: 'nope' }, { id: 'tee', filters: { price: { max: 100 } } }, { id: 'nul\u0000' }]) {
      const answer = await get(body);
      expect(answer).toEqual({
        ucp: { version: '2026-04-08', status: 'error', capabilities: { 'dev.ucp.shopping.catalog.lookup': [{ version: '2026-04-08' }] } },
        messages: [{ type: 'error', code: 'not_found', content: `Product not found: ${body.id}`, severity: 'unrecoverable' }],
      });
    }
  });

  it('refuses an option named twice and a body without id', async () => {
    expect((await refusal(catalog.getProduct(SHOP, { id: 'tee', selected: [{ name: 'Size', label: 'S' }, { name: 'Size', label: 'M' }] }))).code).toBe('invalid_request');
    expect((await refusal(catalog.getProduct(SHOP, { selected: [] }))).code).toBe('invalid_request');
  });
});

describe('catalog ids in checkout', () => {
  it('are accepted as line item ids, priced as the catalog shows them', async () => {
    const found = (await catalog.lookup(SHOP, { ids: ['tee', 'mug', 'tee-blue-s'] })) as Body;
    const variantIds = (found.products as Body[]).flatMap((p) => p.variants.map((v: Body) => v.id as string));
    const items = await world.services.checkout.itemsByIds(SHOP, variantIds);
    const record = await world.services.checkout.open(SHOP, { items: items.map((item) => ({ ...item, quantity: 1 })) });
    expect(record.session.lineItems.map((line) => [line.variantSku, Number(line.unitAmount)])).toEqual(
      (found.products as Body[]).flatMap((p) => p.variants.map((v: Body) => [v.id, v.price.amount])),
    );
  });
});
