/**
 * Checkout sessions through real HTTP on a real database: creation and its line-item
 * rules, totals, reading, updating, and the errors of each. Completion and the state
 * table are in checkout-lifecycle.e2e.test.ts.
 */
import { createCheckoutSession, createClient, getCheckoutSession, updateCheckoutSession, type Client } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bare, checkoutCalls, SF_ADDRESS, stocked, type CheckoutCalls } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let client: Client;
let api: CheckoutCalls;
let otherShop: CheckoutCalls;

const catalog = [
  stocked('chair', [{ price: 10.67 }]),
  stocked('shirt', [{ sku: 'shirt-s', price: 20 }, { sku: 'shirt-l', price: 22.5 }]),
  stocked('ebook', [{ price: 12, requires_shipping: false, taxable: false }]),
  stocked('gift-card', [{ price: 25, requires_shipping: false }]),
  stocked('food', [{ price: 30, taxable: false }]),
  stocked('penny', [{ price: 0.03 }]),
  stocked('tenth', [{ price: 0.1 }]),
  stocked('sold-out', [{ price: 5, quantity: 0 }]),
  stocked('euro-mug', [{ price: 9.99, currency: 'EUR' }]),
  stocked('teapot', [{ price: 30, currency: 'JPY' }]),
  stocked('kettle', [{ price: 1500, currency: 'JPY' }]),
  stocked('dates', [{ price: 1.235, currency: 'KWD' }]),
  bare('poster', 7.5, 4),
];

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', catalog);
  await gateway.importProducts('other', [stocked('foreign')]);
  const key = await gateway.createKey({ merchantIds: ['shop'] });
  client = createClient({ baseUrl: gateway.url, headers: { 'X-ACP-API-Key': key } });
  api = checkoutCalls(gateway.url, key);
  otherShop = checkoutCalls(gateway.url, await gateway.createKey({ merchantIds: ['other'] }));
});

afterAll(() => gateway?.close());

async function open(body: Record<string, unknown>) {
  const reply = await api.create(body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.checkout_session;
}

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

describe('totals', () => {
  it.each([
    ['below the free-shipping threshold', [{ product_id: 'chair', quantity: 4 }], 'standard', 5, 42.68],
    ['exactly at the threshold', [{ product_id: 'food', quantity: 1 }, { product_id: 'shirt', quantity: 1 }], 'standard', 0, 50],
    ['above it', [{ product_id: 'shirt', variant_sku: 'shirt-l', quantity: 3 }], 'standard', 0, 67.5],
    ['when nothing ships', [{ product_id: 'ebook' }, { product_id: 'gift-card' }], 'none', 0, 37],
    ['when one item of several ships', [{ product_id: 'ebook' }, { product_id: 'chair' }], 'standard', 5, 22.67],
  ])('ships %s', async (_name, items, method, amount, subtotal) => {
    const session = await open({ items });
    expect(session.shipping).toEqual({ method, amount, currency: 'USD' });
    expect(session.amounts).toMatchObject({ subtotal, shipping: amount, total: Math.round((subtotal + amount) * 100) / 100 });
  });

  it.each([
    [{ country: 'US', state: 'CA' }, 0.0725, 7.25],
    [{ country: 'us', state: 'ny' }, 0.04, 4],
    [{ country: 'US', state: 'TX' }, 0.0625, 6.25],
    [{ country: 'US', state: 'OR' }, 0, 0],
    [{ country: 'US' }, 0, 0],
    [{ country: 'GB' }, 0.2, 20],
    [{ country: 'DE', state: 'BE' }, 0.19, 19],
    [{ country: 'FR' }, 0.2, 20],
    [{ country: 'JP' }, 0.1, 10],
    [{ country: 'CH' }, 0, 0],
    [{ city: 'Nowhere' }, 0, 0],
  ])('taxes an address in %o at %d', async (address, rate, tax) => {
    const session = await open({ items: [{ product_id: 'shirt', quantity: 5 }], shipping_address: address });
    expect(session.tax).toEqual({ rate, amount: tax, currency: 'USD' });
    expect(session.amounts).toEqual({ subtotal: 100, discount: 0, tax, shipping: 0, total: 100 + tax, currency: 'USD' });
  });

  it('has no tax without an address', async () => {
    const session = await open({ items: [{ product_id: 'shirt', quantity: 5 }] });
    expect(session.tax).toEqual({ rate: 0, amount: 0, currency: 'USD' });
  });

  it('taxes taxable items only, never shipping', async () => {
    const session = await open({ items: [{ product_id: 'chair', quantity: 2 }, { product_id: 'ebook' }], shipping_address: SF_ADDRESS });
    // 21.34 × 0.0725 = 1.54715 → 1.55; the ebook (12.00) and shipping (5.00) are not taxed.
    expect(session.amounts).toEqual({ subtotal: 33.34, discount: 0, tax: 1.55, shipping: 5, total: 39.89, currency: 'USD' });
  });

  it('rounds tax half up once per session, not per line', async () => {
    const session = await open({ items: [{ product_id: 'penny' }, { product_id: 'penny' }], shipping_address: { country: 'GB' } });
    // per line 0.006 would round to 0.01 + 0.01; once per session 0.012 → 0.01.
    expect(session.amounts).toEqual({ subtotal: 0.06, discount: 0, tax: 0.01, shipping: 5, total: 5.07, currency: 'USD' });
  });

  it('adds decimal amounts without float error', async () => {
    const session = await open({ items: [{ product_id: 'tenth', quantity: 3 }] });
    expect(session.line_items[0]!.subtotal).toBe(0.3);
    expect(session.amounts.total).toBe(5.3);
  });

  it('counts JPY in whole yen (exponent 0), with the default 5 / 50 shipping in yen', async () => {
    const cheap = await open({ items: [{ product_id: 'teapot' }], shipping_address: { country: 'JP' } });
    expect(cheap.amounts).toEqual({ subtotal: 30, discount: 0, tax: 3, shipping: 5, total: 38, currency: 'JPY' });
    const dear = await open({ items: [{ product_id: 'kettle', quantity: 3 }, { product_id: 'teapot' }], shipping_address: { country: 'JP' } });
    expect(dear.amounts).toEqual({ subtotal: 4530, discount: 0, tax: 453, shipping: 0, total: 4983, currency: 'JPY' });
    expect(dear.shipping.currency).toBe('JPY');
    expect(dear.line_items.every((line) => line.currency === 'JPY')).toBe(true);
  });

  it('counts KWD in fils (exponent 3)', async () => {
    const session = await open({ items: [{ product_id: 'dates', quantity: 3 }], shipping_address: { country: 'DE' } });
    // 3.705 × 0.19 = 0.70395 → 0.704
    expect(session.amounts).toEqual({ subtotal: 3.705, discount: 0, tax: 0.704, shipping: 5, total: 9.409, currency: 'KWD' });
  });
});

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

describe('pricing settings', () => {
  it('prices with the operator’s tax table and flat shipping (TAX_RATES, SHIPPING_FLAT_RATE, SHIPPING_FREE_FROM)', async () => {
    const configured = await startTestGateway({
      env: { TAX_RATES: 'US-CA=0.1,ca=0.05', SHIPPING_FLAT_RATE: '7.5', SHIPPING_FREE_FROM: 'never' },
      db: gateway.db,
    });
    try {
      const calls = checkoutCalls(configured.url, await configured.createKey({ merchantIds: ['shop'] }));
      const inCalifornia = await calls.create({ items: [{ product_id: 'chair', quantity: 10 }], shipping_address: SF_ADDRESS });
      expect(inCalifornia.body.checkout_session.amounts).toEqual({ subtotal: 106.7, discount: 0, tax: 10.67, shipping: 7.5, total: 124.87, currency: 'USD' });
      const inCanada = await calls.create({ items: [{ product_id: 'chair' }], shipping_address: { ...SF_ADDRESS, country: 'CA', state: 'ON' } });
      expect(inCanada.body.checkout_session.tax).toEqual({ rate: 0.05, amount: 0.53, currency: 'USD' });
      const inTexas = await calls.create({ items: [{ product_id: 'chair' }], shipping_address: { ...SF_ADDRESS, state: 'TX' } });
      expect(inTexas.body.checkout_session.tax.rate).toBe(0); // the table replaces the defaults as a whole
    } finally {
      await configured.close();
    }
  });
});
