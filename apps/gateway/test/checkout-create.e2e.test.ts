/**
 * POST /checkout_sessions through real HTTP on a real database (the shop of
 * test/support/checkout-shop.ts): a session with every field of the contract, its id and
 * client_secret, line items (variants, products without variants, the limits, out-of-stock items),
 * prices from the catalog only, the address and customer as stored, and each refusal (nothing
 * stored). Totals: checkout-totals; reading and updating: checkout-get-update; completion and the
 * state table: checkout-lifecycle.
 */
import { createCheckoutSession, type Client } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutCalls } from './support/checkout.js';
import { openSession, startCheckoutShop } from './support/checkout-shop.js';
import type { TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let client: Client;
let api: CheckoutCalls;

beforeAll(async () => {
  ({ gateway, client, api } = await startCheckoutShop());
});

afterAll(() => gateway?.close());

const open = (body: Record<string, unknown>) => openSession(api, body);

describe('POST /checkout_sessions', () => {
  it('creates an open session with every field of the contract', async () => {
    const { data, response } = await createCheckoutSession({ client, body: { items: [{ product_id: 'chair', quantity: 2 }] } });
    expect(response!.status).toBe(201);
    const session = data!.checkout_session;
    expect(session).toEqual({
      id: expect.stringMatching(/^cs_[A-Za-z0-9]{24}$/),
      status: 'open',
      currency: 'USD',
      line_items: [
        { product_id: 'chair', variant_sku: 'chair-v0', quantity: 2, title: 'Title of chair', unit_price: 10.67, currency: 'USD', subtotal: 21.34, discount: 0 },
      ],
      shipping_address: null,
      shipping_address_id: null,
      saved_addresses: [],
      customer: null,
      customer_id: null,
      payment_method: 'demo_card',
      shipping: { method: 'standard', amount: 5, currency: 'USD' },
      shipping_options: [{ id: 'standard', title: 'Standard shipping', method: 'standard', amount: 5, original_amount: 5, promotion: null, currency: 'USD', delivery_estimate: null }],
      shipping_option_id: 'standard',
      shipping_option_chosen: false,
      shipping_unavailable: null,
      discount_codes: [],
      discounts: { applied: [], rejected: [] },
      tax: { rate: 0, amount: 0, currency: 'USD' },
      amounts: { subtotal: 21.34, discount: 0, tax: 0, shipping: 5, total: 26.34, currency: 'USD' },
      client_secret: expect.stringMatching(new RegExp(`^${session.id}_secret_[A-Za-z0-9]{24}$`)),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      order: null,
    });
    expect(Math.abs(Date.parse(session.created_at) - Date.now())).toBeLessThan(60_000);
  });

  it('gives every session its own unguessable id and client_secret', async () => {
    const sessions = await Promise.all([1, 2, 3].map(() => open({ items: [{ product_id: 'chair' }] })));
    expect(new Set(sessions.map((s) => s.id)).size).toBe(3);
    expect(new Set(sessions.map((s) => s.client_secret.split('_secret_')[1])).size).toBe(3);
  });

  it('buys one unit of the first variant when neither quantity nor SKU is given, the named variant otherwise', async () => {
    const session = await open({ items: [{ product_id: 'shirt' }, { product_id: 'shirt', variant_sku: 'shirt-l', quantity: 3 }] });
    expect(session.line_items).toMatchObject([
      { variant_sku: 'shirt-s', quantity: 1, unit_price: 20, subtotal: 20 },
      { variant_sku: 'shirt-l', quantity: 3, unit_price: 22.5, subtotal: 67.5 },
    ]);
    expect(session.amounts).toMatchObject({ subtotal: 87.5, shipping: 0, total: 87.5 });
  });

  it('buys a product without variants as itself: its id is the SKU, its price the unit price', async () => {
    const session = await open({ items: [{ product_id: 'poster', quantity: 2 }, { product_id: 'poster', variant_sku: 'poster' }] });
    expect(session.line_items).toMatchObject([
      { product_id: 'poster', variant_sku: 'poster', quantity: 2, title: 'Title of poster', unit_price: 7.5, subtotal: 15 },
      { product_id: 'poster', variant_sku: 'poster', quantity: 1, subtotal: 7.5 },
    ]);
  });

  it('takes prices from the catalog, never from the client', async () => {
    const reply = await api.create({ items: [{ product_id: 'chair', unit_price: 0.01 }] });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', param: 'items[0].unit_price' });
  });

  it('accepts the limits: 100 lines and 999 units', async () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ product_id: 'chair', quantity: i === 0 ? 999 : 1 }));
    const session = await open({ items });
    expect(session.line_items).toHaveLength(100);
    expect(session.amounts.subtotal).toBe(11715.66); // (999 + 99) × 10.67
  });

  it('accepts out-of-stock items into an open cart', async () => {
    const session = await open({ items: [{ product_id: 'sold-out', quantity: 3 }] });
    expect(session.line_items[0]).toMatchObject({ product_id: 'sold-out', quantity: 3 });
  });

  it('stores the address and customer with unset fields left out and the country upper-cased', async () => {
    const session = await open({
      items: [{ product_id: 'chair' }],
      shipping_address: { line1: '1 Market St', city: 'San Francisco', state: 'ca', country: 'us' },
      customer: { email: 'ada@example.com' },
      payment_method: 'tok_visa_4242',
    });
    expect(session.shipping_address).toEqual({ line1: '1 Market St', city: 'San Francisco', state: 'ca', country: 'US' });
    expect(session.customer).toEqual({ email: 'ada@example.com' });
    expect(session.payment_method).toBe('tok_visa_4242');
    expect(session.tax.rate).toBe(0.0725); // the state matches case-insensitively
  });

  const tooMany = Array.from({ length: 101 }, () => ({ product_id: 'chair' }));
  it.each([
    ['an unknown product', { items: [{ product_id: 'chair' }, { product_id: 'nope' }] }, 404, 'not_found', 'items[1].product_id'],
    ["another merchant's product", { items: [{ product_id: 'foreign' }] }, 404, 'not_found', 'items[0].product_id'],
    ["a SKU of another product", { items: [{ product_id: 'chair', variant_sku: 'shirt-s' }] }, 400, 'invalid_request', 'items[0].variant_sku'],
    ['an unknown SKU', { items: [{ product_id: 'shirt', variant_sku: 'shirt-xl' }] }, 400, 'invalid_request', 'items[0].variant_sku'],
    ['quantity 0', { items: [{ product_id: 'chair', quantity: 0 }] }, 400, 'invalid_request', 'items[0].quantity'],
    ['quantity 1000', { items: [{ product_id: 'chair', quantity: 1000 }] }, 400, 'invalid_request', 'items[0].quantity'],
    ['a fractional quantity', { items: [{ product_id: 'chair', quantity: 1.5 }] }, 400, 'invalid_request', 'items[0].quantity'],
    ['101 lines', { items: tooMany }, 400, 'invalid_request', 'items'],
    ['no lines', { items: [] }, 400, 'invalid_request', 'items'],
    ['no items at all', {}, 400, 'invalid_request', 'items'],
    ['two currencies', { items: [{ product_id: 'chair' }, { product_id: 'euro-mug' }] }, 400, 'invalid_request', 'items[1]'],
    ['an empty payment method', { items: [{ product_id: 'chair' }], payment_method: '' }, 400, 'invalid_request', 'payment_method'],
    ['a 65-character payment method', { items: [{ product_id: 'chair' }], payment_method: 'x'.repeat(65) }, 400, 'invalid_request', 'payment_method'],
    ['an unknown field', { items: [{ product_id: 'chair' }], discount: 5 }, 400, 'invalid_request', 'discount'],
  ])('refuses %s', async (_name, body, status, code, param) => {
    const before = await gateway.db.prisma.checkoutSession.count();
    const reply = await api.create(body);
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ code, param, detail: expect.any(String) });
    expect(await gateway.db.prisma.checkoutSession.count()).toBe(before);
  });

  it('names both currencies when a cart mixes them', async () => {
    const reply = await api.create({ items: [{ product_id: 'chair' }, { product_id: 'euro-mug' }] });
    expect(reply.body.detail).toMatch(/EUR.*USD/);
  });
});
