/**
 * A stored price checkout cannot charge — one the contract would refuse at import, written by
 * SQL to show that checkout is safe by itself — is a 400 naming the line, never a 500. A write
 * by SQL announces itself as any writer outside the gateway must (NOTIFY catalog_changed), so
 * that the gateway's catalog read model reads the products again.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkoutCalls, stocked, type CheckoutCalls } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let api: CheckoutCalls;
let key: string;

const PRICES: [string, string][] = [
  ['1e21 (money formatting had no decimal for it)', '1e21'],
  ['1e300', '1e300'],
  ['Infinity', "'Infinity'"],
  ['NaN', "'NaN'"],
  ['1e13 (a cart total past 2^53 minor units)', '1e13'],
  ['a price whose minor units pass 2^53 for one unit', '1e14'],
];

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('cheap', [{ price: 5 }]), ...PRICES.map((_, i) => stocked(`huge-${i}`, [{ price: 5 }]))]);
  for (const [i, [, sql]] of PRICES.entries()) {
    await gateway.db.prisma.$executeRawUnsafe(`UPDATE variants SET price = ${sql}::float8 WHERE merchant_id = 'shop' AND product_id = 'huge-${i}'`);
    await gateway.db.prisma.$executeRawUnsafe(`UPDATE products SET price = ${sql}::float8 WHERE merchant_id = 'shop' AND id = 'huge-${i}'`);
  }
  await gateway.db.prisma.$executeRaw`SELECT pg_notify('catalog_changed', ${JSON.stringify({ source: 'sql', merchantId: 'shop' })})`;
  key = await gateway.createKey({ merchantIds: ['shop'] });
  api = checkoutCalls(gateway.url, key);
  // The read model applies the announced change within a second.
  const price = async () => (await (await fetch(`${gateway.url}/acp/products/huge-4`, { headers: { 'X-ACP-API-Key': key } })).json()).price;
  // (vi.waitFor, as expect.poll is for tests, not hooks; 5 s: a limit for a busy machine.)
  await vi.waitFor(async () => expect(await price(), 'the read model did not apply the announced change within 5 s').toBe(1e13), { timeout: 5_000, interval: 50 });
});
afterAll(() => gateway?.close());

describe('a stored price checkout cannot charge', () => {
  it.each(PRICES.map(([name], i) => [name, i] as const))('%s: create answers 400 naming the line', async (_name, i) => {
    const reply = await api.create({ items: [{ product_id: 'cheap' }, { product_id: `huge-${i}`, quantity: 999 }] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', param: expect.stringMatching(/^items/) });
  });

  it.each(PRICES.map(([name], i) => [name, i] as const))('%s: PATCH answers 400 and keeps the cart', async (_name, i) => {
    const created = await api.create({ items: [{ product_id: 'cheap', quantity: 2 }] });
    expect(created.status).toBe(201);
    const id = created.body.checkout_session.id;
    const reply = await api.update(id, { items: [{ product_id: `huge-${i}` , quantity: 999 }] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', param: expect.stringMatching(/^items/) });
    const read = await api.get(id);
    expect(read.body.checkout_session).toMatchObject({ line_items: [{ product_id: 'cheap', quantity: 2 }], amounts: { subtotal: 10 } });
  });

  it('still serves a product stored with a finite price past the import bound (stored before it)', async () => {
    for (const i of [0, 1, 4, 5]) {
      const reply = await fetch(`${gateway.url}/acp/products/huge-${i}`, { headers: { 'X-ACP-API-Key': key } });
      expect(reply.status).toBe(200);
      expect((await reply.json()).price).toBe(Number(PRICES[i]![1]));
    }
    const search = await fetch(`${gateway.url}/acp/products?min_price=1000000&max_price=9000000000000000`, { headers: { 'X-ACP-API-Key': key } });
    expect(search.status).toBe(200);
    expect((await search.json()).items.map((item: { id: string }) => item.id).sort()).toEqual(['huge-4', 'huge-5']);
  });

  it('names the line and says why, for one unit of a price past 2^53 minor units', async () => {
    const reply = await api.create({ items: [{ product_id: 'cheap' }, { product_id: 'huge-0' }] });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ param: 'items[1]', detail: expect.stringMatching(/price .* cannot be charged/) });
  });
});
