/**
 * Reading and updating checkout sessions through real HTTP on a real database (the shop of
 * test/support/checkout-shop.ts): GET returns the session as answered, PATCH replaces the cart or
 * the given fields and recomputes the totals, keeps a line's price until the cart is replaced,
 * refuses bad input leaving the session as it was; another merchant's session is 404 to both.
 */
import { getCheckoutSession, updateCheckoutSession, type Client } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SF_ADDRESS, stocked, type CheckoutCalls } from './support/checkout.js';
import { openSession, startCheckoutShop } from './support/checkout-shop.js';
import type { TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let client: Client;
let api: CheckoutCalls;
let otherShop: CheckoutCalls;

beforeAll(async () => {
  ({ gateway, client, api, otherShop } = await startCheckoutShop());
});

afterAll(() => gateway?.close());

const open = (body: Record<string, unknown>) => openSession(api, body);

describe('GET /checkout_sessions/{session_id}', () => {
  it('returns the session as it was answered at creation', async () => {
    const created = await open({ items: [{ product_id: 'chair' }], customer: { name: 'Ada' } });
    const { data, response } = await getCheckoutSession({ client, path: { session_id: created.id } });
    expect(response!.status).toBe(200);
    expect(data!.checkout_session).toEqual(created);
  });

  it('answers 404 for an unknown session and for a session of another merchant', async () => {
    const created = await open({ items: [{ product_id: 'chair' }] });
    expect((await api.get('cs_unknown')).status).toBe(404);
    const foreign = await otherShop.get(created.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'not_found' });
  });
});

describe('PATCH /checkout_sessions/{session_id}', () => {
  it('replaces the whole cart when items are given, and recomputes the totals', async () => {
    const created = await open({ items: [{ product_id: 'chair', quantity: 2 }, { product_id: 'ebook' }] });
    const { data, response } = await updateCheckoutSession({
      client,
      path: { session_id: created.id },
      body: { items: [{ product_id: 'shirt', variant_sku: 'shirt-l', quantity: 2 }] },
    });
    expect(response!.status).toBe(200);
    const session = data!.checkout_session;
    expect(session.line_items).toEqual([
      { product_id: 'shirt', variant_sku: 'shirt-l', quantity: 2, title: 'Title of shirt', unit_price: 22.5, currency: 'USD', subtotal: 45, discount: 0 },
    ]);
    expect(session.amounts).toEqual({ subtotal: 45, discount: 0, tax: 0, shipping: 5, total: 50, currency: 'USD' });
    expect({ ...session, line_items: [], amounts: null }).toEqual({ ...created, line_items: [], amounts: null });
  });

  it('may change the currency with the cart', async () => {
    const created = await open({ items: [{ product_id: 'chair' }] });
    const reply = await api.update(created.id, { items: [{ product_id: 'kettle' }] });
    expect(reply.body.checkout_session).toMatchObject({ currency: 'JPY', amounts: { subtotal: 1500, currency: 'JPY' } });
  });

  it('keeps every omitted field and stores the given ones', async () => {
    const created = await open({ items: [{ product_id: 'chair' }], customer: { name: 'Ada' }, payment_method: 'tok_1' });
    const withAddress = (await api.update(created.id, { shipping_address: SF_ADDRESS })).body.checkout_session;
    expect(withAddress).toMatchObject({ line_items: created.line_items, customer: { name: 'Ada' }, payment_method: 'tok_1', shipping_address: SF_ADDRESS });
    expect(withAddress.tax).toEqual({ rate: 0.0725, amount: 0.77, currency: 'USD' }); // the address brings its rate
    const withPayment = (await api.update(created.id, { payment_method: 'tok_2' })).body.checkout_session;
    expect(withPayment).toEqual({ ...withAddress, payment_method: 'tok_2' });
    const withCustomer = (await api.update(created.id, { customer: { email: 'ada@example.com', phone: '+44' } })).body.checkout_session;
    expect(withCustomer).toEqual({ ...withPayment, customer: { email: 'ada@example.com', phone: '+44' } }); // replaced, not merged
    const empty = await api.update(created.id, {});
    expect(empty.body.checkout_session).toEqual(withCustomer);
  });

  it('replaces the address as a whole, not field by field', async () => {
    const created = await open({ items: [{ product_id: 'chair' }], shipping_address: { ...SF_ADDRESS, line2: 'Suite 300' } });
    const reply = await api.update(created.id, { shipping_address: { line1: '10 Downing St', city: 'London', country: 'gb' } });
    expect(reply.body.checkout_session.shipping_address).toEqual({ line1: '10 Downing St', city: 'London', country: 'GB' });
    expect(reply.body.checkout_session.tax).toMatchObject({ rate: 0.2, amount: 2.13 });
  });

  it.each([
    ['an unknown product', { items: [{ product_id: 'nope' }] }, 404, 'items[0].product_id'],
    ['a SKU of another product', { items: [{ product_id: 'chair' }, { product_id: 'shirt', variant_sku: 'chair-v0' }] }, 400, 'items[1].variant_sku'],
    ['two currencies', { items: [{ product_id: 'kettle' }, { product_id: 'chair' }] }, 400, 'items[1]'],
    ['an empty cart', { items: [] }, 400, 'items'],
    ['quantity 1000', { items: [{ product_id: 'chair', quantity: 1000 }] }, 400, 'items[0].quantity'],
    ['a bad country code', { shipping_address: { country: 'USA' } }, 400, 'shipping_address.country'],
  ])('refuses %s and leaves the session as it was', async (_name, body, status, param) => {
    const created = await open({ items: [{ product_id: 'chair' }] });
    const reply = await api.update(created.id, body);
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ param });
    expect((await api.get(created.id)).body.checkout_session).toEqual(created);
  });

  it('answers 404 for an unknown session and for a session of another merchant', async () => {
    const created = await open({ items: [{ product_id: 'chair' }] });
    expect((await api.update('cs_unknown', { payment_method: 'x' })).status).toBe(404);
    expect((await otherShop.update(created.id, { payment_method: 'x' })).status).toBe(404);
    expect((await api.get(created.id)).body.checkout_session.payment_method).toBe('demo_card');
  });

  it('keeps the prices a line was priced at until the cart is replaced', async () => {
    await gateway.importProducts('shop', [stocked('volatile', [{ price: 10 }])]);
    const created = await open({ items: [{ product_id: 'volatile' }] });
    await gateway.importProducts('shop', [stocked('volatile', [{ price: 12 }])]);
    const kept = await api.update(created.id, { customer: { name: 'Ada' } });
    expect(kept.body.checkout_session.line_items[0]!.unit_price).toBe(10);
    const repriced = await api.update(created.id, { items: [{ product_id: 'volatile' }] });
    expect(repriced.body.checkout_session.line_items[0]!.unit_price).toBe(12);
  });
});
