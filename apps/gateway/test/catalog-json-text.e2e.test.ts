/**
 * Outside development the catalog answers with JSON text made once per product
 * (src/api/product-json.ts) instead of `res.json`: the same answers, byte for byte but for
 * the time they were generated — checked against a replica that validates its responses
 * against the contract (VALIDATE_RESPONSES, development's default) over the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let validating: TestGateway;
let fast: TestGateway;
let key: string;

beforeAll(async () => {
  validating = await startTestGateway({ VALIDATE_RESPONSES: 'true' });
  await validating.importProducts('shop', [
    product({ id: 'lamp', title: 'Brass desk lamp', category: 'Lighting', price: 30, attributes: { color: ['Brass'] } }),
    product({ id: 'chair', title: 'Oak chair "Ö"', category: 'Furniture > Chairs', price: 49.5 }),
    product({ id: 'sofa', title: 'Two-seat sofa', category: 'Furniture > Sofas', price: 199 }),
  ]);
  fast = await startTestGateway({ env: { VALIDATE_RESPONSES: 'false' }, db: validating.db });
  key = await validating.createKey({ merchantIds: ['shop'] });
});
afterAll(async () => {
  await fast?.close();
  await validating?.close();
});

async function get(gateway: TestGateway, path: string) {
  const response = await fetch(`${gateway.url}${path}`, { headers: { 'X-ACP-API-Key': key } });
  return { status: response.status, type: response.headers.get('content-type'), text: (await response.text()).replace(/"generated_at":"[^"]+"/, '"generated_at":"…"') };
}

describe('catalog answers as JSON text', () => {
  it.each([
    '/acp/products/lamp',
    '/acp/products/nope',
    '/acp/products',
    '/acp/products?category=furniture&max_price=100',
    '/acp/products/search?q=lamp',
    '/acp/products?q=brass%20lamp%20under%2050&facets=category,brand,price',
    '/acp/products?q=chair&page=2&page_size=1',
  ])('%s: the same status, type and bytes', async (path) => {
    const [expected, actual] = [await get(validating, path), await get(fast, path)];
    expect(actual).toEqual(expected);
    expect(actual.type).toBe('application/json; charset=utf-8');
  });
});
