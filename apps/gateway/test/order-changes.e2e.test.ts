/**
 * Orders you can fulfil, deliver, cancel and refund: the SDK against a running gateway, over
 * orders made by real checkouts. Every change's event reaches a real local receiver with the
 * whole order (ours, X-Webhook-Signature) and an ACP endpoint as `order_update` with ACP's
 * fulfillments and refund adjustments, validated against the official 2026-04-17 schema.
 * Refusals name the field and change nothing; orders:write is needed; merchants are kept apart;
 * a refund retried with its Idempotency-Key pays back once.
 */
import { verify, verifyAcp, type AcpWebhookEvent } from '@commerce-gateway/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthorizationError, CommerceGateway, InvalidRequestError, MethodNotAllowedError, NotFoundError, type Order } from '@commerce-gateway/sdk';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { acpWebhookEventValidator } from './support/acp-schemas.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver, type ReceivedRequest } from './support/webhook-receiver.js';

const ACP_SECRET = 'whsec_issued_by_the_agent_platform';
let gateway: TestGateway;
let receiver: Receiver;
let gw: CommerceGateway;
let key: string;
let oursSecret: string;
let worker: DeliveryWorker;
const client = (apiKey: string) => new CommerceGateway({ apiKey, baseUrl: gateway.url, maxRetries: 0 });

beforeAll(async () => {
  gateway = await startTestGateway();
  receiver = await startReceiver();
  await gateway.importProducts('shop', [stocked('chair', [{ price: 49.5, quantity: 100 }]), stocked('lamp', [{ price: 20, quantity: 100 }])]);
  await gateway.importProducts('other', [stocked('stool', [{ quantity: 10 }])]);
  key = await gateway.createKey({ merchantIds: ['shop'] }); // scopes: '*'
  gw = client(key);
  const store = new WebhookStore(gateway.db);
  oursSecret = (await store.createEndpoint('shop', `${receiver.url}/ours`, 'whsec_ours_shop')).secret;
  await store.createEndpoint('shop', `${receiver.url}/acp`, ACP_SECRET, 'acp');
  worker = new DeliveryWorker({ store, allowPrivateTargets: true, permalinks: {}, schedule: [0, 50, 50, 50], pollIntervalMs: 10, timeoutMs: 2000, random: () => 0.5 });
  worker.start();
}, 60_000);
afterEach(() => {
  receiver.requests.length = 0;
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await gateway?.close();
});

/** A completed checkout's order: 3 chairs and a lamp, shipped to San Francisco. */
async function newOrder(): Promise<Order> {
  const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair', quantity: 3 }, { product_id: 'lamp' }], shipping_address: SF_ADDRESS });
  const completed = await gw.checkoutSessions.complete(session.id);
  return gw.orders.retrieve(completed.order!.id);
}

/** The events of one order that reached the receiver: ours (verified) and ACP's (verified and schema-checked), in order. */
async function eventsOf(orderId: string, count: number): Promise<{ ours: { type: string; order: Order }[]; acp: AcpWebhookEvent[] }> {
  const of = () => receiver.requests.filter((r) => r.raw.toString().includes(orderId));
  await expect.poll(() => of().length, { interval: 20 }).toBeGreaterThanOrEqual(count * 2);
  const requests = of();
  expect(requests).toHaveLength(count * 2);
  const byTime = (path: string) => requests.filter((r: ReceivedRequest) => r.path === path);
  const ours = byTime('/ours').map((r) => verify(r.raw, r.headers['x-webhook-signature'], oursSecret) as { type: string; data: { object: Order } })
    .map((e) => ({ type: e.type, order: e.data.object }));
  const validate = acpWebhookEventValidator();
  const acp = byTime('/acp').map((r) => {
    const event = verifyAcp(r.raw, r.headers['merchant-signature'] as string, ACP_SECRET);
    expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    return event;
  });
  return { ours, acp };
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => expect.unreachable('the change went through'), (error: unknown) => error);
}

describe('fulfil, deliver and refund an order', () => {
  it('partial then full fulfilment with tracking, delivery, a partial then a full refund; each event carries the whole order', async () => {
    const placed = await newOrder();
    const total = placed.amounts.total;

    const first = await gw.orders.fulfil(placed.id, { carrier: 'UPS', tracking_number: '1Z999AA1', tracking_url: 'https://ups.example/track/1Z999AA1', lines: [{ line: 1, quantity: 2 }] });
    expect(first).toMatchObject({ status: 'partially_fulfilled', fulfillments: [{ status: 'shipped', carrier: 'UPS', tracking_number: '1Z999AA1', tracking_url: 'https://ups.example/track/1Z999AA1', lines: [{ line: 1, quantity: 2 }], delivered_at: null }] });
    expect(first.fulfillments[0]!.id).toMatch(/^ful_/);

    const tooMany = await refusal(gw.orders.fulfil(placed.id, { lines: [{ line: 2, quantity: 1 }, { line: 1, quantity: 2 }] }));
    expect(tooMany).toBeInstanceOf(InvalidRequestError);
    expect((tooMany as InvalidRequestError).param).toBe('lines[1].quantity');
    expect(((await refusal(gw.orders.fulfil(placed.id, { lines: [{ line: 3, quantity: 1 }] }))) as InvalidRequestError).param).toBe('lines[0].line');
    expect(((await refusal(gw.orders.fulfil(placed.id, { tracking_url: 'ftp://ups.example/x' }))) as InvalidRequestError).param).toBe('tracking_url');
    expect(await gw.orders.retrieve(placed.id)).toEqual(first);

    const rest = await gw.orders.fulfil(placed.id, { carrier: 'USPS', tracking_number: '9400' });
    expect(rest.status).toBe('fulfilled');
    expect(rest.fulfillments[1]).toMatchObject({ carrier: 'USPS', tracking_url: null, lines: [{ line: 1, quantity: 1 }, { line: 2, quantity: 1 }] });
    expect(await refusal(gw.orders.fulfil(placed.id))).toBeInstanceOf(MethodNotAllowedError);

    const halfway = await gw.orders.deliver(placed.id, rest.fulfillments[0]!.id);
    expect(halfway.status).toBe('fulfilled');
    expect(halfway.fulfillments[0]).toMatchObject({ status: 'delivered', delivered_at: expect.any(String) });
    const delivered = await gw.orders.deliver(placed.id, rest.fulfillments[1]!.id);
    expect(delivered.status).toBe('delivered');
    expect(await refusal(gw.orders.deliver(placed.id, rest.fulfillments[1]!.id))).toBeInstanceOf(MethodNotAllowedError);
    expect(await refusal(gw.orders.deliver(placed.id, 'ful_nope'))).toBeInstanceOf(NotFoundError);

    const partly = await gw.orders.refund(placed.id, { amount: 10.25, reason: 'damaged', note: 'Lamp arrived scratched' });
    expect(partly).toMatchObject({ status: 'delivered', refunded_amount: 10.25, refunds: [{ amount: 10.25, reason: 'damaged', note: 'Lamp arrived scratched', lines: [] }] });
    const above = await refusal(gw.orders.refund(placed.id, { amount: total, reason: 'requested_by_customer' }));
    expect(above).toBeInstanceOf(InvalidRequestError);
    expect((above as InvalidRequestError).param).toBe('amount');
    expect(((await refusal(gw.orders.refund(placed.id, { amount: 0.001, reason: 'other' }))) as InvalidRequestError).param).toBe('amount');
    expect(((await refusal(gw.orders.refund(placed.id, { amount: 1e300, reason: 'other' }))) as InvalidRequestError).param).toBe('amount');
    expect(((await refusal(gw.orders.refund(placed.id, { amount: 1e14 + 0.5, reason: 'other' }))) as InvalidRequestError).param).toBe('amount');
    // The answer is the order as the refund committed it; the PSP's confirmation, after the commit, shows in its payment.
    expect(partly.payment).toMatchObject({ status: 'captured', refunded_amount: 0 });
    expect(await gw.orders.retrieve(placed.id)).toEqual({ ...partly, payment: { ...partly.payment, status: 'partially_refunded', refunded_amount: 10.25 } });

    const refunded = await gw.orders.refund(placed.id, { reason: 'requested_by_customer' });
    expect(refunded.status).toBe('refunded');
    expect(refunded.refunded_amount).toBe(total);
    expect(refunded.refunds.map((r) => r.amount)).toEqual([10.25, Math.round((total - 10.25) * 100) / 100]);
    expect((await gw.orders.retrieve(placed.id)).payment).toMatchObject({ status: 'refunded', captured_amount: total, refunded_amount: total });
    expect(await refusal(gw.orders.refund(placed.id, { reason: 'other' }))).toBeInstanceOf(MethodNotAllowedError);

    const { ours, acp } = await eventsOf(placed.id, 7);
    expect(ours.map((e) => e.type).sort()).toEqual(['order.created', 'order.fulfilled', 'order.refunded', 'order.refunded', 'order.updated', 'order.updated', 'order.updated']);
    const changes = ours.filter((e) => e.type !== 'order.created').map((e) => e.order);
    expect(changes).toContainEqual(first);
    expect(changes).toContainEqual(rest);
    expect(changes).toContainEqual(halfway);
    expect(changes).toContainEqual(delivered);
    expect(changes).toContainEqual(partly);
    expect(changes).toContainEqual(refunded);

    const acpStatuses = acp.map((e) => `${e.type}:${(e.data as { status: string }).status}`);
    expect(acpStatuses).toContain('order_create:created');
    expect(acpStatuses).toContain('order_update:processing');
    expect(acpStatuses).toContain('order_update:shipped');
    expect(acpStatuses).toContain('order_update:completed');
    const last = acp.map((e) => e.data as unknown as { adjustments: unknown[]; fulfillments: unknown[] }).find((d) => d.adjustments.length === 2);
    expect(last).toMatchObject({
      id: placed.id,
      line_items: [{ id: 'li_1', quantity: { ordered: 3, current: 3, fulfilled: 3 }, status: 'fulfilled' }, { id: 'li_2', quantity: { ordered: 1, current: 1, fulfilled: 1 }, status: 'fulfilled' }],
      fulfillments: [
        { id: first.fulfillments[0]!.id, type: 'shipping', status: 'delivered', carrier: 'UPS', tracking_number: '1Z999AA1', tracking_url: 'https://ups.example/track/1Z999AA1', line_items: [{ id: 'li_1', quantity: 2 }], events: [{ type: 'shipped' }, { type: 'delivered' }] },
        { carrier: 'USPS', status: 'delivered', line_items: [{ id: 'li_1', quantity: 1 }, { id: 'li_2', quantity: 1 }] },
      ],
      adjustments: [
        { type: 'refund', status: 'completed', amount: 1025, currency: 'usd', reason: 'damaged', description: 'Lamp arrived scratched' },
        { type: 'refund', status: 'completed', amount: Math.round(total * 100) - 1025, reason: 'requested_by_customer' },
      ],
    });
    expect((last as unknown as { totals: unknown[] }).totals).toContainEqual({ type: 'amount_refunded', display_text: 'Refunded', amount: Math.round(total * 100) });
  });
});

describe('cancel an order', () => {
  it('cancels an order nothing of which was fulfilled and pays everything back; order.canceled carries the whole order', async () => {
    const placed = await newOrder();
    const canceled = await gw.orders.cancel(placed.id);
    expect(canceled).toMatchObject({ status: 'canceled', canceled_at: expect.any(String), refunded_amount: placed.amounts.total, refunds: [{ amount: placed.amounts.total, reason: 'canceled', lines: [] }] });
    expect(await refusal(gw.orders.cancel(placed.id))).toBeInstanceOf(MethodNotAllowedError);
    expect(await refusal(gw.orders.fulfil(placed.id))).toBeInstanceOf(MethodNotAllowedError);
    const { ours, acp } = await eventsOf(placed.id, 2);
    expect(ours.map((e) => e.type).sort()).toEqual(['order.canceled', 'order.created']);
    expect(ours.find((e) => e.type === 'order.canceled')!.order).toEqual(canceled);
    const update = acp.find((e) => e.type === 'order_update')!.data as unknown as Record<string, unknown>;
    expect(update).toMatchObject({
      status: 'canceled',
      line_items: [{ quantity: { ordered: 3, current: 0, fulfilled: 0 }, status: 'removed' }, { quantity: { ordered: 1, current: 0 }, status: 'removed' }],
      adjustments: [{ type: 'refund', amount: Math.round(placed.amounts.total * 100), reason: 'canceled' }, { type: 'cancellation', line_items: [{ id: 'li_1', quantity: 3 }, { id: 'li_2', quantity: 1 }] }],
    });
  });

  it('after a partial fulfilment cancels the rest only, and moves no money; the order is then fulfilled', async () => {
    const placed = await newOrder();
    await gw.orders.fulfil(placed.id, { lines: [{ line: 1, quantity: 1 }] });
    const canceled = await gw.orders.cancel(placed.id);
    expect(canceled).toMatchObject({ status: 'fulfilled', refunds: [], refunded_amount: 0, canceled_at: expect.any(String) });
    const refund = await gw.orders.refund(placed.id, { amount: 20, reason: 'canceled', lines: [{ line: 2, quantity: 1 }] }).catch((e: unknown) => e);
    expect((refund as InvalidRequestError).param).toBe('lines[0].quantity'); // canceled units are not refunded by line: nothing is left of them
    expect((await gw.orders.refund(placed.id, { amount: 20, reason: 'canceled' })).refunded_amount).toBe(20);
  });
});

describe('refunds by line', () => {
  it('refunds units not yet shipped, which then are not fulfilled', async () => {
    const placed = await newOrder();
    const refunded = await gw.orders.refund(placed.id, { amount: 20, reason: 'requested_by_customer', lines: [{ line: 2, quantity: 1 }] });
    expect(refunded).toMatchObject({ status: 'created', refunds: [{ amount: 20, lines: [{ line: 2, quantity: 1 }] }] });
    expect(((await refusal(gw.orders.fulfil(placed.id, { lines: [{ line: 2, quantity: 1 }] }))) as InvalidRequestError).param).toBe('lines[0].quantity');
    const shipped = await gw.orders.fulfil(placed.id);
    expect(shipped).toMatchObject({ status: 'fulfilled', fulfillments: [{ lines: [{ line: 1, quantity: 3 }] }] });
  });
});

describe('changes at the same time', () => {
  it('two fulfillments of everything left at once: one is recorded, the other refused, and the listing filters on the new status', async () => {
    const placed = await newOrder();
    const [a, b] = await Promise.allSettled([gw.orders.fulfil(placed.id), gw.orders.fulfil(placed.id)]);
    const answers = [a, b].map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as Error).constructor.name));
    expect(answers.sort()).toEqual(['MethodNotAllowedError', 'ok']);
    const order = await gw.orders.retrieve(placed.id);
    expect(order.fulfillments).toHaveLength(1);
    expect(order.status).toBe('fulfilled');
    const partial = await newOrder();
    await gw.orders.fulfil(partial.id, { lines: [{ line: 2, quantity: 1 }] });
    const listed = await gw.orders.list({ status: 'partially_fulfilled', limit: 100 });
    expect(listed.items.map((o) => o.id)).toContain(partial.id);
    expect(listed.items.every((o) => o.status === 'partially_fulfilled')).toBe(true);
  });
});

describe('who may change an order', () => {
  it('needs orders:write: 403 with orders:read only, and nothing changes', async () => {
    const placed = await newOrder();
    const reader = client(await gateway.createKey({ merchantIds: ['shop'], scopes: ['orders:read'] }));
    for (const change of [() => reader.orders.fulfil(placed.id), () => reader.orders.cancel(placed.id), () => reader.orders.refund(placed.id, { reason: 'other' }), () => reader.orders.deliver(placed.id, 'ful_x')]) {
      expect(await refusal(change())).toBeInstanceOf(AuthorizationError);
    }
    expect(await reader.orders.retrieve(placed.id)).toEqual(placed);
  });

  it('answers 404 for an order of another merchant, and changes nothing', async () => {
    const placed = await newOrder();
    const other = client(await gateway.createKey({ merchantIds: ['other'] }));
    for (const change of [() => other.orders.fulfil(placed.id), () => other.orders.cancel(placed.id), () => other.orders.refund(placed.id, { reason: 'other' })]) {
      expect(await refusal(change())).toBeInstanceOf(NotFoundError);
    }
    expect(await gw.orders.retrieve(placed.id)).toEqual(placed);
  });
});

describe('Idempotency-Key on order changes', () => {
  it('a refund retried with the same key answers the same and pays back once', async () => {
    const placed = await newOrder();
    const send = () => call(`${gateway.url}/orders/${placed.id}/refunds`, {
      method: 'POST',
      headers: { 'X-ACP-API-Key': key, 'Idempotency-Key': `refund-${placed.id}` },
      json: { amount: 5, reason: 'damaged' },
    });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const order = await gw.orders.retrieve(placed.id);
    expect(order.refunds).toHaveLength(1);
    expect(order.refunded_amount).toBe(5);
    const sdkKey = { idempotencyKey: `sdk-${placed.id}` };
    const viaSdk = await gw.orders.refund(placed.id, { amount: 1, reason: 'other' }, sdkKey);
    expect(await gw.orders.refund(placed.id, { amount: 1, reason: 'other' }, sdkKey)).toEqual(viaSdk);
    expect((await gw.orders.retrieve(placed.id)).refunds).toHaveLength(2);
  });
});

