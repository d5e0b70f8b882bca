/**
 * Orders you can read: GET /orders/{order_id} and GET /orders through the SDK against a running
 * gateway, over orders made by real checkouts — filters, cursor paging, the SDK's iterator,
 * merchants kept apart, the orders:read scope, and refusals in the contract's shape.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthorizationError, CommerceGateway, InvalidRequestError, NotFoundError, type CheckoutSession, type Order } from '@commerce-gateway/sdk';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let gw: CommerceGateway;
let key: string;
/** The completed sessions, oldest first; their orders are listed newest first. */
const sessions: CheckoutSession[] = [];
const EMAILS = ['ada@example.com', 'bob@example.com', 'Ada@Example.COM', 'dee+orders@example.com', undefined, 'carol@example.com'];
const idOf = (index: number) => sessions[index]!.order!.id;
const newestFirst = (indexes: number[]) => [...indexes].reverse().map(idOf);
const client = (apiKey: string) => new CommerceGateway({ apiKey, baseUrl: gateway.url, maxRetries: 0 });
const get = (path: string, apiKey = key) => call(`${gateway.url}${path}`, { headers: { 'X-ACP-API-Key': apiKey } });
/** Resolves once this process's clock (the in-process gateway's, which stamps created_at in milliseconds) is past `iso`. */
const clockPast = (iso: string) =>
  vi.waitFor(() => {
    if (Date.now() <= Date.parse(iso)) throw new Error(`the clock is not past ${iso} yet`);
  }, { timeout: 10_000, interval: 1 });

async function ids(iterable: AsyncIterable<Order>): Promise<string[]> {
  const seen: string[] = [];
  for await (const order of iterable) seen.push(order.id);
  return seen;
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ price: 49.5, quantity: 100 }]), stocked('lamp', [{ price: 20, quantity: 100 }])]);
  await gateway.importProducts('other', [stocked('stool', [{ quantity: 10 }])]);
  key = await gateway.createKey({ merchantIds: ['shop'] }); // scopes: '*'
  gw = client(key);
  for (const [index, email] of EMAILS.entries()) {
    const created = await gw.checkoutSessions.create({
      items: [{ product_id: 'chair', quantity: 1 + index }, { product_id: 'lamp' }],
      shipping_address: SF_ADDRESS,
      ...(email ? { customer: { email, name: `Buyer ${index}` } } : {}),
    });
    const completed = await gw.checkoutSessions.complete(created.id);
    sessions.push(completed);
    await clockPast(completed.order!.created_at); // the next order's created_at is later, so that the date filters have something to cut between
  }
  await gateway.services.orders.changeStatus('shop', idOf(1), 'fulfilled');
  await gateway.services.orders.changeStatus('shop', idOf(2), 'canceled');
  await gateway.services.orders.changeStatus('shop', idOf(3), 'fulfilled');
  await gateway.services.orders.changeStatus('shop', idOf(3), 'refunded');
  const other = client(await gateway.createKey({ merchantIds: ['other'] }));
  const foreign = await other.checkoutSessions.create({ items: [{ product_id: 'stool' }], shipping_address: SF_ADDRESS, customer: { email: 'ada@example.com' } });
  await other.checkoutSessions.complete(foreign.id);
}, 60_000);
afterAll(() => gateway?.close());

describe('GET /orders/{order_id}', () => {
  it('shows the order with the lines, amounts, customer and address of its completed session', async () => {
    const session = sessions[0]!;
    const order = await gw.orders.retrieve(idOf(0));
    expect(order).toEqual({
      id: session.order!.id,
      status: 'created',
      checkout_session_id: session.id,
      currency: 'USD',
      line_items: session.line_items,
      shipping: session.shipping,
      tax: session.tax,
      amounts: session.amounts,
      discounts: session.discounts,
      customer: session.customer,
      customer_id: session.customer_id,
      shipping_address: session.shipping_address,
      fulfillments: [],
      refunds: [],
      refunded_amount: 0,
      // Authorized before the order's transaction, captured after it (the test provider: `demo_card` approves).
      payment: { provider: 'test', reference: expect.stringMatching(/^pay_test_/), status: 'captured', authorized_amount: session.amounts.total, captured_amount: session.amounts.total, refunded_amount: 0, currency: 'USD', disputes: [] },
      canceled_at: null,
      created_at: session.order!.created_at,
      updated_at: session.order!.created_at,
    });
    expect(order.amounts).toMatchObject({ subtotal: 69.5, currency: 'USD' });
    expect(order.customer).toEqual({ email: 'ada@example.com', name: 'Buyer 0' });
  });

  it('shows the current status; updated_at moves with it', async () => {
    const refunded = await gw.orders.retrieve(idOf(3));
    expect(refunded.status).toBe('refunded');
    expect(Date.parse(refunded.updated_at)).toBeGreaterThanOrEqual(Date.parse(refunded.created_at));
    expect(refunded.updated_at).not.toBe(refunded.created_at);
  });

  it('answers 404 not_found for an unknown order and for an order of another merchant alike', async () => {
    const otherKey = await gateway.createKey({ merchantIds: ['other'] });
    await expect(client(otherKey).orders.retrieve(idOf(0))).rejects.toBeInstanceOf(NotFoundError);
    const foreign = await get(`/orders/${idOf(0)}`, otherKey);
    const unknown = await get('/orders/ord_000000000000000000000000');
    for (const reply of [foreign, unknown]) {
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ code: 'not_found', param: 'order_id' });
      expect(typeof reply.body.detail).toBe('string');
    }
  });
});

describe('GET /orders', () => {
  it('lists the merchant’s orders only, newest first', async () => {
    const page = await gw.orders.list({ limit: 100 });
    expect(page.items.map((o) => o.id)).toEqual(newestFirst([0, 1, 2, 3, 4, 5]));
    expect(page).toMatchObject({ has_more: false, next_cursor: null });
    expect(page.items[0]).toEqual(await gw.orders.retrieve(idOf(5)));
  });

  it('lists 10 by default', async () => {
    expect((await get('/orders')).body.items).toHaveLength(6);
  });

  it.each([
    ['created', [0, 4, 5]],
    ['fulfilled', [1]],
    ['canceled', [2]],
    ['refunded', [3]],
  ] as const)('filters by status %s', async (status, expected) => {
    const page = await gw.orders.list({ status });
    expect(page.items.map((o) => o.id)).toEqual(newestFirst([...expected]));
    expect(page.items.every((o) => o.status === status)).toBe(true);
  });

  it('filters by the buyer’s e-mail, exactly but ignoring case', async () => {
    expect((await gw.orders.list({ email: 'ADA@example.com' })).items.map((o) => o.id)).toEqual(newestFirst([0, 2]));
    expect((await gw.orders.list({ email: 'dee+orders@example.com' })).items.map((o) => o.id)).toEqual([idOf(3)]);
    expect((await gw.orders.list({ email: 'ada@example' })).items).toEqual([]);
  });

  it('filters by created_after and created_before, strictly', async () => {
    const at = (index: number) => sessions[index]!.order!.created_at;
    expect((await gw.orders.list({ created_after: at(3) })).items.map((o) => o.id)).toEqual(newestFirst([4, 5]));
    expect((await gw.orders.list({ created_before: at(2) })).items.map((o) => o.id)).toEqual(newestFirst([0, 1]));
    expect((await gw.orders.list({ created_after: at(0), created_before: at(3) })).items.map((o) => o.id)).toEqual(newestFirst([1, 2]));
    const offset = new Date(Date.parse(at(4)) - 1).toISOString().replace('Z', '+00:00'); // an offset's + is sent as %2B
    expect((await gw.orders.list({ created_after: offset, status: 'created' })).items.map((o) => o.id)).toEqual(newestFirst([4, 5]));
  });

  it('pages by cursor: has_more and next_cursor, no order twice or missed', async () => {
    const first = await gw.orders.list({ limit: 4 });
    expect(first.items.map((o) => o.id)).toEqual(newestFirst([2, 3, 4, 5]));
    expect(first.has_more).toBe(true);
    const second = await gw.orders.list({ limit: 4, cursor: first.next_cursor! });
    expect(second.items.map((o) => o.id)).toEqual(newestFirst([0, 1]));
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    const exact = await gw.orders.list({ limit: 6 });
    expect(exact).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('is walked by the SDK’s iterator, page after page, with filters', async () => {
    expect(await ids(gw.orders.iterate({ limit: 2 }))).toEqual(newestFirst([0, 1, 2, 3, 4, 5]));
    expect(await ids(gw.orders.iterate({ limit: 1, status: 'created' }))).toEqual(newestFirst([0, 4, 5]));
    expect(await ids(gw.orders.iterate({ limit: 2 }, { limit: 3 }))).toEqual(newestFirst([3, 4, 5]));
  });

  it('keeps a page stable while new orders arrive at the head', async () => {
    const first = await gw.orders.list({ limit: 3 });
    const created = await gw.checkoutSessions.create({ items: [{ product_id: 'lamp' }], shipping_address: SF_ADDRESS });
    const late = await gw.checkoutSessions.complete(created.id);
    const rest = await gw.orders.list({ limit: 3, cursor: first.next_cursor! });
    expect([...first.items, ...rest.items].map((o) => o.id)).toEqual(newestFirst([0, 1, 2, 3, 4, 5]));
    expect((await gw.orders.list({ limit: 1 })).items[0]!.id).toBe(late.order!.id);
    sessions.push(late);
  });
});

describe('the orders:read scope', () => {
  it('refuses a key without it with 403 authorization_error, for both reads', async () => {
    const narrow = await gateway.createKey({ merchantIds: ['shop'], scopes: ['catalog:read', 'checkout:read', 'checkout:write'] });
    await expect(client(narrow).orders.retrieve(idOf(0))).rejects.toBeInstanceOf(AuthorizationError);
    await expect(client(narrow).orders.list()).rejects.toBeInstanceOf(AuthorizationError);
    const reply = await get('/orders', narrow);
    expect(reply.status).toBe(403);
    expect(reply.body.error).toMatchObject({ type: 'authorization_error' });
    expect(reply.body.error.message).toContain('orders:read');
  });

  it('is enough on its own to read orders (and to do nothing else)', async () => {
    const reader = client(await gateway.createKey({ merchantIds: ['shop'], scopes: ['orders:read'] }));
    expect((await reader.orders.retrieve(idOf(0))).id).toBe(idOf(0));
    await expect(reader.checkoutSessions.retrieve(sessions[0]!.id)).rejects.toBeInstanceOf(AuthorizationError);
  });
});

describe('bad filters', () => {
  it.each([
    ['an unknown status', 'status=shipped', 'status'],
    ['a date that is not RFC 3339', 'created_after=yesterday', 'created_after'],
    ['a date-time without a zone', 'created_before=2026-11-02T10:00:00', 'created_before'],
    ['a day that does not exist', 'created_after=2026-02-31T00:00:00Z', 'created_after'],
    ['a year PostgreSQL does not have', 'created_before=0000-06-01T00:00:00Z', 'created_before'],
    ['created_after not before created_before', 'created_after=2026-11-02T00:00:00Z&created_before=2026-11-01T00:00:00Z', 'created_after'],
    ['limit 0', 'limit=0', 'limit'],
    ['limit 101', 'limit=101', 'limit'],
    ['a limit that is not a number', 'limit=ten', 'limit'],
    ['a cursor this API did not give', 'cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['an unknown parameter', 'page=2', 'page'],
  ])('answers 400 invalid_request for %s, and changes nothing', async (_name, query, param) => {
    const before = await gw.orders.list({ limit: 100 });
    const reply = await get(`/orders?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request' });
    expect(typeof reply.body.detail).toBe('string');
    expect(reply.body.param ?? reply.body.detail).toContain(param);
    expect(await gw.orders.list({ limit: 100 })).toEqual(before);
  });

  it('reaches the SDK as an InvalidRequestError naming the parameter', async () => {
    const error = await gw.orders.list({ limit: 101 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).param).toBe('limit');
  });
});
