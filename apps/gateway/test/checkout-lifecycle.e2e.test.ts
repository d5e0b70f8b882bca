/**
 * The checkout state table through real HTTP: complete (address, stock, inventory
 * policy, order, outbox event), cancel, and every transition out of a final state.
 */
import { cancelCheckoutSession, completeCheckoutSession, createClient, type Client } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutSession } from '../src/contract/types.js';
import { bare, checkoutCalls, SF_ADDRESS, stocked, type CheckoutCalls } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let client: Client;
let api: CheckoutCalls;
let otherShop: CheckoutCalls;
let key: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [
    stocked('chair', [{ price: 10.67, quantity: 20 }]),
    stocked('lamp', [{ price: 30, quantity: 2 }]),
    stocked('vase', [{ price: 15, quantity: 6 }]),
    stocked('ebook', [{ price: 12, requires_shipping: false, taxable: false, quantity: 50 }]),
    stocked('preorder', [{ price: 40, quantity: 1, policy: 'continue' }]),
    stocked('pair', [{ sku: 'pair-a', price: 5, quantity: 3 }, { sku: 'pair-b', price: 6, quantity: 9 }]),
    bare('poster', 7.5, 4),
  ]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
  client = createClient({ baseUrl: gateway.url, headers: { 'X-ACP-API-Key': key } });
  api = checkoutCalls(gateway.url, key);
  otherShop = checkoutCalls(gateway.url, await gateway.createKey({ merchantIds: ['other'] }));
});

afterAll(() => gateway?.close());

async function open(body: Record<string, unknown>): Promise<CheckoutSession> {
  const reply = await api.create(body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.checkout_session;
}

async function stockOf(productId: string, sku?: string) {
  const product = (await api.product(productId)).body;
  return sku ? product.variants.find((v) => v.sku === sku)!.inventory : product.availability;
}

async function recorded(sessionId: string) {
  const prisma = gateway.db.prisma;
  const orders = await prisma.order.findMany({ where: { checkoutSessionId: sessionId } });
  const events = (await prisma.webhookEvent.findMany({ where: { type: 'order.created' } })).filter(
    (event) => (event.payload as { data: { object: { id: string } } }).data.object.id === sessionId,
  );
  return { orders, events };
}

describe('POST /checkout_sessions/{session_id}/complete', () => {
  it('takes the stock, creates the order, completes the session and queues order.created — from what it answered', async () => {
    const created = await open({ items: [{ product_id: 'chair', quantity: 15 }, { product_id: 'ebook' }], shipping_address: SF_ADDRESS });
    const { data, response } = await completeCheckoutSession({ client, path: { session_id: created.id } });
    expect(response!.status).toBe(200);
    const session = data!.checkout_session;
    expect(session).toEqual({
      ...created,
      status: 'completed',
      order: { id: expect.stringMatching(/^ord_[A-Za-z0-9]{24}$/), checkout_session_id: created.id, status: 'created', created_at: expect.stringMatching(/Z$/) },
    });
    expect(await stockOf('chair')).toEqual({ status: 'limited', quantity: 5, policy: 'deny' });
    expect(await stockOf('ebook')).toEqual({ status: 'in_stock', quantity: 49, policy: 'deny' });

    const { orders, events } = await recorded(created.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ id: session.order!.id, merchantId: 'shop', status: 'created', currency: 'USD', total: 18365n }); // 160.05 + 12 + 11.60 tax, free shipping
    expect(session.amounts.total).toBe(183.65);
    expect(events).toHaveLength(1);
    expect(events[0]!.merchantId).toBe('shop');
    expect(events[0]!.payload).toEqual({ id: events[0]!.id, type: 'order.created', created: expect.any(String), data: { object: session } });
    expect((await api.get(created.id)).body.checkout_session).toEqual(session);
  });

  it('needs no address when nothing ships', async () => {
    const created = await open({ items: [{ product_id: 'ebook', quantity: 2 }] });
    const reply = await api.complete(created.id);
    expect(reply.status).toBe(200);
    expect(reply.body.checkout_session.shipping_address).toBeNull();
  });

  it.each([
    ['no address', undefined, 'shipping_address', /shipping address \(line1, city, country\)/],
    ['an address without a city', { line1: '1 Market St', country: 'US' }, 'shipping_address.city', /lacks city/],
    ['an address with a blank street', { line1: '  ', city: 'Paris', country: 'FR' }, 'shipping_address.line1', /lacks line1/],
    ['an address without a country', { line1: '1 Market St', city: 'San Francisco' }, 'shipping_address.country', /lacks country/],
  ])('refuses to ship to %s (400), and changes nothing', async (_name, address, param, detail) => {
    const created = await open({ items: [{ product_id: 'chair' }], ...(address ? { shipping_address: address } : {}) });
    const reply = await api.complete(created.id);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', param, detail: expect.stringMatching(detail) });
    expect((await api.get(created.id)).body.checkout_session).toEqual(created);
    expect((await recorded(created.id)).orders).toHaveLength(0);
  });

  it('refuses more than the stock of a deny variant (400 naming the line) and takes nothing at all', async () => {
    const chairBefore = await stockOf('chair');
    const created = await open({ items: [{ product_id: 'chair' }, { product_id: 'lamp', quantity: 3 }], shipping_address: SF_ADDRESS });
    const reply = await api.complete(created.id);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      code: 'invalid_request',
      param: 'line_items[1].quantity',
      detail: 'Not enough stock for line_items[1] (sku lamp-v0, Title of lamp): 3 requested, 2 available',
    });
    expect(await stockOf('chair')).toEqual(chairBefore); // the first line's stock was given back
    expect(await stockOf('lamp')).toMatchObject({ quantity: 2 });
    expect((await api.get(created.id)).body.checkout_session.status).toBe('open');
    expect(await recorded(created.id)).toEqual({ orders: [], events: [] });
  });

  it('sums the lines of one SKU before it checks the stock', async () => {
    const created = await open({ items: [{ product_id: 'pair', quantity: 2 }, { product_id: 'chair' }, { product_id: 'pair', variant_sku: 'pair-a', quantity: 2 }], shipping_address: SF_ADDRESS });
    const reply = await api.complete(created.id);
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toBe('Not enough stock for line_items[0] + line_items[2] (sku pair-a, Title of pair): 4 requested, 3 available');
  });

  it('sells exactly the stock left, down to out_of_stock, and the product availability follows', async () => {
    const created = await open({ items: [{ product_id: 'pair', variant_sku: 'pair-b', quantity: 9 }], shipping_address: SF_ADDRESS });
    expect((await api.complete(created.id)).status).toBe(200);
    expect(await stockOf('pair', 'pair-b')).toEqual({ status: 'out_of_stock', quantity: 0, policy: 'deny' });
    expect(await stockOf('pair')).toEqual({ status: 'limited', quantity: 3, policy: 'deny' });
  });

  it('lets a continue variant be backordered, its quantity staying at 0', async () => {
    const created = await open({ items: [{ product_id: 'preorder', quantity: 3 }], shipping_address: SF_ADDRESS });
    expect((await api.complete(created.id)).status).toBe(200);
    expect(await stockOf('preorder', 'preorder-v0')).toEqual({ status: 'out_of_stock', quantity: 0, policy: 'continue' });
    const again = await open({ items: [{ product_id: 'preorder' }], shipping_address: SF_ADDRESS });
    expect((await api.complete(again.id)).status).toBe(200);
  });

  it('takes the stock of a product without variants from the product itself', async () => {
    const created = await open({ items: [{ product_id: 'poster', quantity: 3 }], shipping_address: SF_ADDRESS });
    expect((await api.complete(created.id)).status).toBe(200);
    expect(await stockOf('poster')).toEqual({ status: 'limited', quantity: 1, policy: 'deny' });
    const tooMany = await open({ items: [{ product_id: 'poster', quantity: 2 }], shipping_address: SF_ADDRESS });
    const reply = await api.complete(tooMany.id);
    expect(reply.body).toMatchObject({ param: 'line_items[0].quantity', detail: expect.stringContaining('2 requested, 1 available') });
  });

  it('refuses an item that left the catalog after it was put in the cart', async () => {
    await gateway.importProducts('shop', [stocked('fleeting', [{ sku: 'fleeting-old' }])]);
    const created = await open({ items: [{ product_id: 'fleeting' }], shipping_address: SF_ADDRESS });
    await gateway.importProducts('shop', [stocked('fleeting', [{ sku: 'fleeting-new' }])]);
    const reply = await api.complete(created.id);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ param: 'line_items[0].variant_sku', detail: expect.stringContaining('no longer in the catalog') });
  });

  it('answers 404 for an unknown session and for a session of another merchant, which stays open', async () => {
    const created = await open({ items: [{ product_id: 'ebook' }] });
    expect((await api.complete('cs_unknown')).status).toBe(404);
    const foreign = await otherShop.complete(created.id);
    expect(foreign).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await api.get(created.id)).body.checkout_session.status).toBe('open');
  });
});

describe('POST /checkout_sessions/{session_id}/cancel', () => {
  it('cancels an open session: no order, no stock taken, no event', async () => {
    const before = await stockOf('vase');
    const created = await open({ items: [{ product_id: 'vase', quantity: 2 }], shipping_address: SF_ADDRESS });
    const { data, response } = await cancelCheckoutSession({ client, path: { session_id: created.id } });
    expect(response!.status).toBe(200);
    expect(data!.checkout_session).toEqual({ ...created, status: 'canceled' });
    expect(await stockOf('vase')).toEqual(before);
    expect(await recorded(created.id)).toEqual({ orders: [], events: [] });
  });

  it('answers 404 for an unknown session and for a session of another merchant', async () => {
    const created = await open({ items: [{ product_id: 'ebook' }] });
    expect((await api.cancel('cs_unknown')).status).toBe(404);
    expect((await otherShop.cancel(created.id)).status).toBe(404);
    expect((await api.get(created.id)).body.checkout_session.status).toBe('open');
  });
});

describe('final states', () => {
  const operations = {
    complete: (id: string) => api.complete(id),
    cancel: (id: string) => api.cancel(id),
    PATCH: (id: string) => api.update(id, { items: [{ product_id: 'chair' }], payment_method: 'tok_late' }),
  };
  const reach = {
    completed: (id: string) => api.complete(id),
    canceled: (id: string) => api.cancel(id),
  };

  it.each([
    ['completed', 'complete'],
    ['completed', 'cancel'],
    ['completed', 'PATCH'],
    ['canceled', 'complete'],
    ['canceled', 'cancel'],
    ['canceled', 'PATCH'],
  ] as const)('a %s session refuses %s with 405 method_not_allowed and stays as it was', async (state, operation) => {
    const created = await open({ items: [{ product_id: 'ebook' }] });
    const final = await reach[state](created.id);
    expect(final.status).toBe(200);
    const ordersBefore = await gateway.db.prisma.order.count();
    const reply = await operations[operation](created.id);
    expect(reply.status).toBe(405);
    expect(reply.body).toEqual({ code: 'method_not_allowed', detail: expect.stringContaining(`is ${state}`) });
    expect((await api.get(created.id)).body.checkout_session).toEqual(final.body.checkout_session);
    expect(await gateway.db.prisma.order.count()).toBe(ordersBefore);
  });
});

describe('Idempotency-Key', () => {
  async function post(path: string, idempotencyKey: string, body?: unknown) {
    const response = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'X-ACP-API-Key': key, 'Idempotency-Key': idempotencyKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: await response.json() };
  }

  it('replays a completion that succeeded (200, not 405) and creates no second order', async () => {
    const created = await open({ items: [{ product_id: 'ebook' }] });
    const first = await post(`/checkout_sessions/${created.id}/complete`, `complete-${created.id}`);
    const again = await post(`/checkout_sessions/${created.id}/complete`, `complete-${created.id}`);
    expect(first.status).toBe(200);
    expect(again).toEqual({ status: 200, replayed: 'true', body: first.body });
    expect((await recorded(created.id)).orders).toHaveLength(1);
  });

  it('replays a creation instead of creating a second session', async () => {
    const body = { items: [{ product_id: 'ebook' }] };
    const first = await post('/checkout_sessions', 'create-once', body);
    const again = await post('/checkout_sessions', 'create-once', body);
    expect(first.status).toBe(201);
    expect(again).toEqual({ status: 201, replayed: 'true', body: first.body });
  });
});

