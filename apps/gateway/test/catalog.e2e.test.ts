/**
 * The vertical slice through every layer: a real gateway on a real database,
 * called through the generated SDK over HTTP.
 */
import { createClient, getProduct, searchProducts, searchProductsAlias, type Client } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let client: Client;
let otherClient: Client;

const catalog = [
  product({ id: 'chair-1', title: 'Oak chair', category: 'Furniture > Chairs', tags: ['Wood', 'seating'], price: 49.5 }),
  product({ id: 'chair-2', title: 'Steel chair', category: 'Furniture > Chairs', tags: ['metal'], price: 80 }),
  product({ id: 'mug-1', title: 'Travel mug', category: 'Kitchen > Drinkware', tags: ['coffee'], price: 12 }),
  product({ id: 'lamp-1', title: 'Desk lamp', category: 'Lighting', tags: ['office'], price: 30 }),
  product({ id: 'sofa-1', title: 'Blue sofa', category: 'Furniture > Sofas', tags: ['seating'], price: 499.99 }),
];

function clientFor(key: string): Client {
  return createClient({ baseUrl: gateway.url, headers: { 'X-ACP-API-Key': key } });
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop-a', catalog);
  await gateway.importProducts('shop-b', [product({ id: 'secret-b', title: 'Only in B', price: 5 })]);
  client = clientFor(await gateway.createKey({ merchantIds: ['shop-a'], scopes: ['catalog:read'] }));
  otherClient = clientFor(await gateway.createKey({ merchantIds: ['shop-b'] }));
});

afterAll(() => gateway?.close());

describe('GET /acp/products/{product_id}', () => {
  it('returns the product itself, with variants, unwrapped', async () => {
    const { data, response } = await getProduct({ client, path: { product_id: 'chair-1' } });
    expect(response!.status).toBe(200);
    expect(data).toMatchObject({ id: 'chair-1', title: 'Oak chair', price: 49.5, currency: 'USD' });
    expect(data?.variants).toHaveLength(1);
    expect(data?.variants[0]).toMatchObject({ sku: 'chair-1-default', inventory: { status: 'in_stock', quantity: 20, policy: 'deny' } });
    expect(response!.headers.get('api-version')).toBe('2026-11-01');
    expect(response!.headers.get('request-id')).toMatch(/^req_/);
  });

  it('answers 404 not_found for an unknown product', async () => {
    const { error, response } = await getProduct({ client, path: { product_id: 'nope' } });
    expect(response!.status).toBe(404);
    expect(error).toMatchObject({ code: 'not_found' });
  });

  it("never shows another merchant's product", async () => {
    const { response } = await getProduct({ client, path: { product_id: 'secret-b' } });
    expect(response!.status).toBe(404);
    const own = await getProduct({ client: otherClient, path: { product_id: 'secret-b' } });
    expect(own.response!.status).toBe(200);
  });
});

describe('GET /acp/products', () => {
  it('lists every product of the merchant ordered by title then id, with defaults page 1 and page_size 10', async () => {
    const { data } = await searchProducts({ client });
    expect(data).toMatchObject({ page: 1, page_size: 10, total: 5, version: '2026-11-01' });
    expect(data?.items.map((p) => p.title)).toEqual(['Blue sofa', 'Desk lamp', 'Oak chair', 'Steel chair', 'Travel mug']);
    expect(Date.parse(data!.generated_at)).not.toBeNaN();
  });

  it.each([
    [{ category: 'chairs' }, ['chair-1', 'chair-2']],
    [{ category: 'FURNITURE' }, ['sofa-1', 'chair-1', 'chair-2']],
    [{ tag: 'wood' }, ['chair-1']],
    [{ tag: 'seating' }, ['sofa-1', 'chair-1']],
    [{ tag: 'seat' }, []],
    [{ min_price: 49.5 }, ['sofa-1', 'chair-1', 'chair-2']],
    [{ max_price: 49.5 }, ['lamp-1', 'chair-1', 'mug-1']],
    [{ min_price: 30, max_price: 80 }, ['lamp-1', 'chair-1', 'chair-2']],
    [{ category: 'furniture', max_price: 100, tag: 'metal' }, ['chair-2']],
  ])('filters %o', async (query, ids) => {
    const { data } = await searchProducts({ client, query });
    expect(data?.items.map((p) => p.id)).toEqual(ids);
    expect(data?.total).toBe(ids.length);
  });

  it('pages without overlap and keeps total stable', async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => searchProducts({ client, query: { page, page_size: 2 } })));
    const ids = pages.flatMap((p) => p.data!.items.map((item) => item.id));
    expect(pages.map((p) => p.data!.total)).toEqual([5, 5, 5]);
    expect(pages.map((p) => p.data!.items.length)).toEqual([2, 2, 1]);
    expect(new Set(ids).size).toBe(5);
    const beyond = await searchProducts({ client, query: { page: 9, page_size: 2 } });
    expect(beyond.data).toMatchObject({ items: [], total: 5, page: 9 });
  });

  it('ranks keyword matches for q, best first, with similarity_score in [0, 1]', async () => {
    const { data } = await searchProducts({ client, query: { q: 'chair' } });
    expect(data?.items.map((p) => p.id).sort()).toEqual(['chair-1', 'chair-2']);
    const scores = data!.items.map((p) => p.similarity_score!);
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0);
    for (const score of scores) expect(score).toBeLessThanOrEqual(1);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('serves the same results on the /search alias', async () => {
    const alias = await searchProductsAlias({ client, query: { tag: 'seating' } });
    const main = await searchProducts({ client, query: { tag: 'seating' } });
    expect(alias.data?.items).toEqual(main.data?.items);
  });

  it.each([
    [{ page_size: 101 }, 'page_size'],
    [{ page_size: 0 }, 'page_size'],
    [{ page: 0 }, 'page'],
    [{ min_price: -1 }, 'min_price'],
    [{ min_price: 10, max_price: 5 }, 'min_price'],
    [{ page: 'two' }, 'page'],
  ])('rejects %o with 400 invalid_request naming the parameter', async (query, param) => {
    const { error, response } = await searchProducts({ client, query: query as never });
    expect(response!.status).toBe(400);
    expect(error).toMatchObject({ code: 'invalid_request', param });
    expect((error as { detail: string }).detail).toEqual(expect.any(String));
  });
});

describe('authentication on the slice', () => {
  it('refuses a request without a key with 401 authentication_error', async () => {
    const { error, response } = await searchProducts({ client: createClient({ baseUrl: gateway.url }) });
    expect(response!.status).toBe(401);
    expect(error).toMatchObject({ error: { type: 'authentication_error', message: expect.any(String) } });
  });

  it('refuses a key without the catalog:read scope with 403 authorization_error', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop-a'], scopes: ['checkout:read'] });
    const { error, response } = await searchProducts({ client: clientFor(key) });
    expect(response!.status).toBe(403);
    expect(error).toMatchObject({ error: { type: 'authorization_error' } });
  });
});
