/**
 * The admin API over the commerce domain: customers (list by cursor, the data-subject export,
 * erasure), discounts, and the shipping profile (replace, show), each a call of the service the
 * CLI runs — with a per-merchant credential kept to its merchant and a read-only one to reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
const op = { full: '', reader: '' };

const admin = (token: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply> =>
  call(`${gateway.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}` } });

const CUSTOMERS = [
  { email: 'ada@example.com', name: 'Ada' },
  { email: 'bob@example.com', phone: '+1 555 0100' },
  { email: 'cy@example.com', name: 'Cy' },
];
const SHIPPING = { zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 7 } }] }] };

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ price: 40, quantity: 10 }])]);
  await gateway.importProducts('rival', [stocked('stool', [{ price: 15, quantity: 10 }])]);
  await gateway.services.customers.importFile('shop', catalogFile(CUSTOMERS, 'customers.ndjson'));
  await gateway.services.discounts.importFile('shop', catalogFile([{ type: 'code', code: 'TEN', kind: 'percentage', percentage: 10 }], 'discounts.ndjson'));
  op.full = (await gateway.services.admin.operators.create({ name: 'shop ops', access: 'full', merchantIds: ['shop'] })).token;
  op.reader = (await gateway.services.admin.operators.create({ name: 'auditor', access: 'read', allMerchants: true })).token;
}, 120_000);
afterAll(() => gateway?.close());

describe('customers', () => {
  it('lists customers by email, one page at a time, with their ids; shows one and erases one by id (then 404); an email in the path is 400', async () => {
    const first = await admin(op.reader, '/merchants/shop/customers?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items.map((c: { email: string }) => c.email)).toEqual(['ada@example.com', 'bob@example.com']);
    expect(first.body.items.every((c: { id: string }) => /^cus_/.test(c.id))).toBe(true);
    expect(first.body.has_more).toBe(true);
    const second = await admin(op.reader, `/merchants/shop/customers?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ items: [{ email: 'cy@example.com', name: 'Cy' }], has_more: false, next_cursor: null });
    expect((await admin(op.reader, '/merchants/shop/customers?cursor=nope')).body.error).toMatchObject({ type: 'invalid_request', param: 'cursor' });
    const [ada] = first.body.items as { id: string }[];
    const cy = (second.body.items as { id: string }[])[0]!;

    const shown = await admin(op.reader, `/merchants/shop/customers/${ada!.id}`);
    expect(shown.body).toMatchObject({ email: 'ada@example.com', customer: { id: ada!.id, name: 'Ada' }, orders: [] });
    // Customers are addressed by id: an email in the path is refused, never looked up (nor logged as a customer's address).
    const byEmail = await admin(op.reader, '/merchants/shop/customers/ada@example.com');
    expect(byEmail.status).toBe(400);
    expect(byEmail.body.error).toMatchObject({ type: 'invalid_request', param: 'customer_id' });

    expect((await admin(op.reader, `/merchants/shop/customers/${cy.id}`, { method: 'DELETE' })).status).toBe(403);
    const erased = await admin(op.full, `/merchants/shop/customers/${cy.id}`, { method: 'DELETE' });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ customers: 1 });
    expect((await admin(op.reader, `/merchants/shop/customers/${cy.id}`)).body.error).toMatchObject({ type: 'not_found', param: 'customer_id' });
    expect((await admin(op.full, `/merchants/shop/customers/${cy.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await admin(op.full, '/merchants/rival/customers')).status).toBe(403);
  });
});

describe('discounts and shipping profile', () => {
  it('lists the discounts; replaces and shows the shipping profile; a bad profile is 400 and changes nothing', async () => {
    const discounts = await admin(op.reader, '/merchants/shop/discounts');
    expect(discounts.body.items).toEqual([expect.objectContaining({ type: 'code', code: 'TEN' })]);

    expect((await admin(op.reader, '/merchants/shop/shipping_profile')).status).toBe(404);
    const replaced = await admin(op.full, '/merchants/shop/shipping_profile', { method: 'PUT', json: SHIPPING });
    expect(replaced.status).toBe(200);
    expect(replaced.body.zones[0]).toMatchObject({ id: 'us', countries: ['US'] });
    const bad = await admin(op.full, '/merchants/shop/shipping_profile', { method: 'PUT', json: { zones: [{ id: 'us', countries: ['nowhere'] }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe('invalid_request');
    expect((await admin(op.reader, '/merchants/shop/shipping_profile')).body).toEqual(replaced.body);
    expect((await admin(op.reader, '/merchants/shop/shipping_profile', { method: 'PUT', json: SHIPPING })).status).toBe(403);

    const audit = (await admin(op.reader, '/audit?limit=3')).body.items;
    expect(audit.map((e: { operation: string; status: number }) => [e.operation, e.status])).toEqual([
      ['replaceShippingProfile', 403],
      ['replaceShippingProfile', 400],
      ['replaceShippingProfile', 200],
    ]);
  });

  it('removes the shipping profile: checkout prices at the flat rate again; 404 once gone; read-only 403', async () => {
    await admin(op.full, '/merchants/shop/shipping_profile', { method: 'PUT', json: SHIPPING });
    const key = await gateway.createKey({ merchantIds: ['shop'] });
    const shippingOf = async () =>
      (await call(`${gateway.url}/checkout_sessions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, json: { items: [{ product_id: 'chair' }], shipping_address: { name: 'A', line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' } } })).body.checkout_session.shipping.amount;
    expect(await shippingOf()).toBe(7); // the profile's price
    expect((await admin(op.reader, '/merchants/shop/shipping_profile', { method: 'DELETE' })).status).toBe(403);
    const removed = await admin(op.full, '/merchants/shop/shipping_profile', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body.zones[0]).toMatchObject({ id: 'us' });
    expect(await shippingOf()).toBe(5); // the flat rate (the contract's default: 5, free from 50; the chair is 40)
    expect((await admin(op.reader, '/merchants/shop/shipping_profile')).status).toBe(404);
    expect((await admin(op.full, '/merchants/shop/shipping_profile', { method: 'DELETE' })).body.error).toMatchObject({ type: 'not_found' });
  });
});

describe('discount and customer files', () => {
  const upload = (token: string, path: string, body: string, type = 'application/json') =>
    call(`${gateway.url}/admin${path}`, { method: 'POST', body, headers: { authorization: `Bearer ${token}`, 'content-type': type } });
  const PROMOTION = { type: 'promotion', id: 'ship-free', kind: 'free_shipping', minimum_subtotal: { USD: 50 } };

  it('imports codes and promotions (JSON array or NDJSON) through the discounts service; shows a code (any case) and a promotion', async () => {
    const imported = await upload(op.full, '/merchants/shop/discounts/import', JSON.stringify([{ type: 'code', code: 'Five', kind: 'fixed', amounts: { USD: 5 } }, PROMOTION]));
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ merchant_id: 'shop', codes: 1, promotions: 1 });
    const ndjson = await upload(op.full, '/merchants/shop/discounts/import', `${JSON.stringify({ type: 'code', code: 'TEN', kind: 'percentage', percentage: 15 })}\n`, 'application/x-ndjson');
    expect(ndjson.body).toEqual({ merchant_id: 'shop', codes: 1, promotions: 0 });

    expect((await admin(op.reader, '/merchants/shop/discount_codes/ten')).body).toMatchObject({ type: 'code', code: 'TEN', percentage: 15 });
    expect((await admin(op.reader, '/merchants/shop/discount_codes/FIVE')).body).toMatchObject({ code: 'Five' });
    expect((await admin(op.reader, '/merchants/shop/promotions/ship-free')).body).toEqual(PROMOTION);
    const missing = await admin(op.reader, '/merchants/shop/discount_codes/NOPE');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'not_found', param: 'code' });
    expect((await admin(op.reader, '/merchants/shop/promotions/nope')).body.error).toMatchObject({ type: 'not_found', param: 'promotion_id' });
    expect((await admin(op.reader, '/merchants/rival/discount_codes/TEN')).status).toBe(404);
  });

  it('removes a code (any case) and a promotion: the next checkout no longer gets them; 404 once gone; read-only 403; audited', async () => {
    await upload(op.full, '/merchants/shop/discounts/import', JSON.stringify([{ type: 'code', code: 'GONE', kind: 'percentage', percentage: 20 }, { ...PROMOTION, id: 'gone-too' }]));
    const key = await gateway.createKey({ merchantIds: ['shop'] });
    const checkout = (codes: string[]) =>
      call(`${gateway.url}/checkout_sessions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, json: { items: [{ product_id: 'chair' }], discount_codes: codes } });
    const before = await checkout(['GONE']);
    expect(before.status).toBe(201);
    expect(before.body.checkout_session.discounts.applied.map((d: { code?: string }) => d.code)).toContain('GONE');

    expect((await admin(op.reader, '/merchants/shop/discount_codes/gone', { method: 'DELETE' })).status).toBe(403);
    const removed = await admin(op.full, '/merchants/shop/discount_codes/gone', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ type: 'code', code: 'GONE', kind: 'percentage', percentage: 20 });
    const after = await checkout(['GONE']);
    expect(after.body.checkout_session.discounts.applied).toEqual([]);
    expect(after.body.checkout_session.discounts.rejected).toMatchObject([{ code: 'GONE', reason: 'unknown' }]);
    expect((await admin(op.full, '/merchants/shop/discount_codes/GONE', { method: 'DELETE' })).body.error).toMatchObject({ type: 'not_found', param: 'code' });

    expect((await admin(op.full, '/merchants/shop/promotions/gone-too', { method: 'DELETE' })).body).toEqual({ ...PROMOTION, id: 'gone-too' });
    expect((await admin(op.reader, '/merchants/shop/promotions/gone-too')).status).toBe(404);
    expect((await admin(op.full, '/merchants/rival/promotions/ship-free', { method: 'DELETE' })).status).toBe(403);
    const [entry] = (await admin(op.reader, '/audit?limit=2')).body.items;
    expect(entry).toMatchObject({ operation: 'removePromotion', outcome: 'refused', status: 403 });
    expect((await admin(op.reader, '/audit?limit=5')).body.items).toEqual(expect.arrayContaining([expect.objectContaining({ operation: 'removeDiscountCode', target: 'gone', outcome: 'succeeded' })]));
  });

  it('refuses a bad discounts file with 400 naming the line, and writes nothing; read-only 403, another merchant 403, an unknown one 404', async () => {
    const before = (await admin(op.reader, '/merchants/shop/discounts')).body.items;
    const bad = await upload(op.full, '/merchants/shop/discounts/import', JSON.stringify([{ type: 'code', code: 'NEW', kind: 'percentage', percentage: 5 }, { type: 'code', code: 'BAD', kind: 'percentage', percentage: 500 }]));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request', param: 'body', message: expect.stringMatching(/line \d+/) });
    for (const body of ['garbage', '[]', '{}']) expect((await upload(op.full, '/merchants/shop/discounts/import', body)).status).toBe(400);
    expect((await admin(op.reader, '/merchants/shop/discounts')).body.items).toEqual(before);
    expect((await upload(op.reader, '/merchants/shop/discounts/import', JSON.stringify([PROMOTION]))).status).toBe(403);
    expect((await upload(op.full, '/merchants/rival/discounts/import', JSON.stringify([PROMOTION]))).status).toBe(403);
    const root = await gateway.services.admin.operators.create({ name: 'root', access: 'full', allMerchants: true });
    expect((await upload(root.token, '/merchants/nosuch/discounts/import', JSON.stringify([PROMOTION]))).status).toBe(404);
    expect(await gateway.services.admin.merchants.exists('nosuch')).toBe(false);
    const audit = (await admin(op.reader, '/audit?limit=1')).body.items;
    expect(audit[0]).toMatchObject({ operation: 'importDiscounts', outcome: 'refused', status: 404 });
  });

  it('imports customers through the customers service; a bad record is 400 and writes nothing', async () => {
    const imported = await upload(op.full, '/merchants/shop/customers/import', JSON.stringify([{ email: 'dee@example.com', name: 'Dee' }, { email: 'ada@example.com', name: 'Ada Lovelace' }]));
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ merchant_id: 'shop', customers: 2, addresses: 0 });
    const listed = async () => (await admin(op.reader, '/merchants/shop/customers?limit=100')).body.items as { id: string; email: string; name?: string }[];
    expect(await listed()).toEqual(expect.arrayContaining([expect.objectContaining({ email: 'dee@example.com', name: 'Dee' }), expect.objectContaining({ email: 'ada@example.com', name: 'Ada Lovelace' })]));
    const bad = await upload(op.full, '/merchants/shop/customers/import', `${JSON.stringify({ email: 'eve@example.com' })}\n${JSON.stringify({ email: 'not an email' })}\n`, 'application/x-ndjson');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request', param: 'body', message: expect.stringMatching(/line 2/) });
    expect((await listed()).map((customer) => customer.email)).not.toContain('eve@example.com');
    expect((await upload(op.full, '/merchants/shop/customers/import', 'id,email\n1,x@example.com\n', 'text/csv')).status).toBe(415);
  });
});
