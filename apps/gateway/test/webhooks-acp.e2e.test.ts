/**
 * ACP order webhooks end to end: a checkout completed over HTTP, then an order changed by the
 * merchant, each delivered through the outbox to an ACP endpoint (order_create / order_update,
 * Merchant-Signature) and to one of ours (order.* , X-Webhook-Signature) — bodies validated
 * against the official ACP 2026-04-17 schemas, signatures verified with @commerce-gateway/webhooks.
 */
import { verify, verifyAcp, type AcpWebhookEvent } from '@commerce-gateway/webhooks';
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OrderService } from '../src/orders/order-service.js';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { acpWebhookEventValidator, merchantSignaturePattern } from './support/acp-schemas.js';
import { bare, checkoutCalls, SF_ADDRESS, stocked, type CheckoutCalls } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver, type ReceivedRequest } from './support/webhook-receiver.js';

const ACP_SECRET = 'whsec_issued_by_the_agent_platform';
let gateway: TestGateway;
let receiver: Receiver;
let store: WebhookStore;
let orders: OrderService;
let merchantCount = 0;
const workers: DeliveryWorker[] = [];

beforeAll(async () => {
  gateway = await startTestGateway({ TAX_RATES: 'US-CA=0.1' });
  receiver = await startReceiver();
  store = new WebhookStore(gateway.db);
  orders = gateway.services.orders;
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await gateway.db.prisma.webhookDelivery.updateMany({ where: { state: 'pending' }, data: { state: 'abandoned' } });
  receiver.reply = 200;
  receiver.replies = [];
  receiver.requests.length = 0;
});
afterAll(async () => {
  await receiver?.close();
  await gateway?.close();
});

function startWorker(storefrontUrl?: string): DeliveryWorker {
  const worker = new DeliveryWorker({ store, allowPrivateTargets: true, permalinks: { storefrontUrl }, schedule: [0, 50, 50, 50], pollIntervalMs: 10, timeoutMs: 2000, random: () => 0.5 });
  workers.push(worker);
  worker.start();
  return worker;
}

/** A merchant with a catalog, a key, an ACP endpoint at /acp and one of ours at /ours. */
async function shop(): Promise<{ merchantId: string; calls: CheckoutCalls; ours: string }> {
  const merchantId = `acp-shop-${++merchantCount}`;
  await gateway.importProducts(merchantId, [
    stocked('shoes', [{ sku: 'shoes-42', price: 99, quantity: 5 }], { title: 'Running Shoes' }),
    bare('ebook', 12.5, 100),
  ]);
  const calls = checkoutCalls(gateway.url, await gateway.createKey({ merchantIds: [merchantId] }));
  await store.createEndpoint(merchantId, `${receiver.url}/acp`, ACP_SECRET, 'acp');
  const ours = await store.createEndpoint(merchantId, `${receiver.url}/ours`, `whsec_ours_${merchantId}`);
  return { merchantId, calls, ours: ours.secret };
}

async function completedOrder(calls: CheckoutCalls) {
  const created = await calls.create({ items: [{ product_id: 'shoes', quantity: 2 }, { product_id: 'ebook', quantity: 1 }], shipping_address: SF_ADDRESS });
  expect(created.status).toBe(201);
  const completed = await calls.complete(created.body.checkout_session.id);
  expect(completed.status).toBe(200);
  return completed.body.checkout_session;
}

const byPath = (requests: ReceivedRequest[], path: string) => requests.filter((r) => r.path === path);

function checkAcpDelivery(request: ReceivedRequest): AcpWebhookEvent {
  const header = request.headers['merchant-signature'] as string;
  expect(header).toMatch(merchantSignaturePattern());
  // The scheme, computed independently: HMAC-SHA256 over "<t>.<raw body>".
  const t = /^t=(\d+),/.exec(header)![1];
  expect(header).toBe(`t=${t},v1=${createHmac('sha256', ACP_SECRET).update(`${t}.`).update(request.raw).digest('hex')}`);
  const event = verifyAcp(request.raw, header, ACP_SECRET);
  const validate = acpWebhookEventValidator();
  expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['x-webhook-signature']).toBeUndefined();
  return event;
}

describe('ACP order webhooks', () => {
  it('order_create on completion: the full order in minor units, signed with Merchant-Signature, beside our order.created', async () => {
    const { merchantId, calls, ours } = await shop();
    const session = await completedOrder(calls);
    startWorker('https://{merchant_id}.shops.example/');
    const requests = await receiver.waitFor(2);
    const [acp] = byPath(requests, '/acp');
    const event = checkAcpDelivery(acp!);
    expect(acp!.headers['request-id']).toMatch(/^evt_/);
    expect(event).toEqual({
      type: 'order_create',
      data: {
        type: 'order',
        id: session.order!.id,
        checkout_session_id: session.id,
        permalink_url: `https://${merchantId}.shops.example/orders/${session.order!.id}`,
        status: 'created',
        line_items: [
          { id: 'li_1', title: 'Running Shoes', product_id: 'shoes', quantity: { ordered: 2, current: 2, fulfilled: 0 }, unit_price: 9900, subtotal: 19800, status: 'processing' },
          { id: 'li_2', title: 'Title of ebook', product_id: 'ebook', quantity: { ordered: 1, current: 1, fulfilled: 0 }, unit_price: 1250, subtotal: 1250, status: 'processing' },
        ],
        fulfillments: [],
        adjustments: [],
        totals: [
          { type: 'subtotal', display_text: 'Subtotal', amount: 21050 },
          { type: 'fulfillment', display_text: 'Shipping', amount: Math.round(session.amounts.shipping * 100) },
          { type: 'tax', display_text: 'Tax', amount: Math.round(session.amounts.tax * 100) },
          { type: 'total', display_text: 'Total', amount: Math.round(session.amounts.total * 100) },
        ],
      },
    });
    expect(session.amounts.tax).toBeGreaterThan(0);
    const [gatewayRequest] = byPath(requests, '/ours');
    const ourEvent = verify(gatewayRequest!.raw, gatewayRequest!.headers['x-webhook-signature'], ours);
    expect(ourEvent).toMatchObject({ type: 'order.created', data: { object: { id: session.id } } });
  });

  it('order_update when the merchant fulfills, then refunds the order; refused changes send nothing', async () => {
    const { merchantId, calls } = await shop();
    const session = await completedOrder(calls);
    const orderId = session.order!.id;
    await orders.changeStatus(merchantId, orderId, 'fulfilled');
    await expect(orders.changeStatus(merchantId, orderId, 'canceled')).rejects.toThrow(/has nothing left to cancel \(it is fulfilled\)/);
    await expect(orders.changeStatus(merchantId, 'ord_nope', 'refunded')).rejects.toThrow(/No order/);
    await orders.changeStatus(merchantId, orderId, 'refunded');
    startWorker();
    const requests = await receiver.waitFor(6);
    const acp = byPath(requests, '/acp').map(checkAcpDelivery);
    expect(acp.map((e) => e.type).sort()).toEqual(['order_create', 'order_update', 'order_update']);
    const updates = acp.filter((e) => e.type === 'order_update');
    const shipped = updates.find((e) => !(e.data as { adjustments?: unknown[] }).adjustments?.length);
    const refunded = updates.find((e) => (e.data as { adjustments?: unknown[] }).adjustments?.length);
    expect(shipped).toMatchObject({
      type: 'order_update',
      data: {
        id: orderId,
        permalink_url: `https://${merchantId}.storefront.invalid/orders/${orderId}`,
        line_items: [{ quantity: { ordered: 2, current: 2, fulfilled: 2 }, status: 'fulfilled' }, { quantity: { fulfilled: 1 }, status: 'fulfilled' }],
        fulfillments: [{ type: 'shipping', status: 'shipped', line_items: [{ id: 'li_1', quantity: 2 }, { id: 'li_2', quantity: 1 }], events: [{ type: 'shipped' }] }],
      },
    });
    const total = Math.round(session.amounts.total * 100);
    // A refund of the rest after the fulfilment: money back, the goods stay shipped (no lines refunded).
    expect(refunded).toMatchObject({
      type: 'order_update',
      data: {
        status: 'shipped',
        line_items: [{ quantity: { ordered: 2, current: 2, fulfilled: 2 }, status: 'fulfilled' }, { status: 'fulfilled' }],
        adjustments: [{ type: 'refund', status: 'completed', amount: total, currency: 'usd', reason: 'other' }],
      },
    });
    expect(refunded!.data.totals).toContainEqual({ type: 'amount_refunded', display_text: 'Refunded', amount: total });
    expect(byPath(requests, '/ours').map((r) => r.json.type).sort()).toEqual(['order.created', 'order.fulfilled', 'order.refunded']);
  });

  it('retries an ACP endpoint on the same schedule with the same bytes, a fresh signature each time', async () => {
    const { merchantId, calls } = await shop();
    await store.createEndpoint(merchantId, `${receiver.url}/acp-flaky`, ACP_SECRET, 'acp');
    await completedOrder(calls);
    receiver.reply = (res, request) => {
      res.statusCode = request.path === '/acp-flaky' && byPath(receiver.requests, '/acp-flaky').length < 3 ? 503 : 200;
      res.end();
    };
    startWorker();
    await receiver.waitFor(5);
    const flaky = byPath(receiver.requests, '/acp-flaky');
    expect(flaky).toHaveLength(3);
    expect(new Set(flaky.map((r) => r.raw.toString())).size).toBe(1);
    for (const request of flaky) checkAcpDelivery(request);
  });

  it('an ACP endpoint gets no event that has no ACP form; ours still does', async () => {
    const { merchantId } = await shop();
    const { OutboxStore } = await import('../src/webhooks/outbox-store.js');
    const event = await gateway.db.transaction((tx) => new OutboxStore().enqueue(tx, { merchantId, type: 'custom.thing' as never, object: {} }));
    const deliveries = await gateway.db.prisma.webhookDelivery.findMany({ where: { eventId: event.id }, include: { endpoint: true } });
    expect(deliveries.map((d) => d.endpoint.protocol)).toEqual(['gateway']);
  });
});
