/**
 * Stripe's webhooks (POST /payments/stripe/webhooks) against a running gateway on a real
 * database, with events signed as Stripe signs them (the official client's test header): a
 * missing, wrong or stale signature is 400 in our error shape and changes nothing; an event is
 * applied once however often it is delivered; a dispute reaches the merchant's endpoint as
 * `order.disputed`; a refund made in Stripe's dashboard becomes an order refund and
 * `order.refunded`; events of another account, of no order, or of a type not handled change nothing.
 */
import { verify } from '@commerce-gateway/webhooks';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommerceGateway, type Order } from '@commerce-gateway/sdk';
import { createApp } from '../src/app.js';
import { sql } from '../src/db/statement.js';
import { openRateLimitStores } from '../src/rate-limit/open-stores.js';
import type { RateLimitStores } from '../src/rate-limit/stores.js';
import { listenOn, type Listening } from '../src/server.js';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import Stripe from 'stripe';
import { signedEvent, stripeEvent } from './support/fake-stripe-webhooks.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const SECRET = 'whsec_test_gateway_endpoint';
const ACCOUNT = 'acct_1ShopConnected';
let gateway: TestGateway;
let stripeApp: Listening;
let rateLimits: RateLimitStores;
let receiver: Receiver;
let worker: DeliveryWorker;
let gw: CommerceGateway;
let oursSecret: string;
let endpoint: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ price: 49.5, quantity: 100 }])]);
  gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['shop'] }), baseUrl: gateway.url, maxRetries: 0 });
  await gateway.db.sql.execute(sql`UPDATE merchants SET stripe_account_id = ${ACCOUNT} WHERE id = 'shop'`);
  // The same services behind an app that takes Stripe's webhooks (PAYMENT_PROVIDER=stripe).
  const logger = pino({ level: 'silent' });
  rateLimits = await openRateLimitStores(undefined, logger);
  const config = { ...gateway.config, paymentProvider: 'stripe', stripeWebhookSecret: SECRET };
  stripeApp = await listenOn(createApp({ config, logger, rateLimits, ...gateway.services }), '127.0.0.1', 0);
  endpoint = `${stripeApp.url}/payments/stripe/webhooks`;
  receiver = await startReceiver();
  const store = new WebhookStore(gateway.db);
  oursSecret = (await store.createEndpoint('shop', `${receiver.url}/ours`, 'whsec_ours_shop')).secret;
  worker = new DeliveryWorker({ store, allowPrivateTargets: true, permalinks: {}, schedule: [0, 50, 50, 50], pollIntervalMs: 10, timeoutMs: 2000, random: () => 0.5 });
  worker.start();
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  stripeApp?.server.closeAllConnections();
  await stripeApp?.close();
  await rateLimits?.close();
  await gateway?.close();
});

/** A completed order (2 chairs, 99.00 + shipping and tax) whose payment is the PaymentIntent `pi`. */
async function paidOrder(pi: string): Promise<Order> {
  const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair', quantity: 2 }], shipping_address: SF_ADDRESS });
  const completed = await gw.checkoutSessions.complete(session.id);
  await gateway.db.sql.execute(sql`UPDATE checkout_sessions SET payment_reference = ${pi} WHERE id = ${session.id}`);
  return gw.orders.retrieve(completed.order!.id);
}

async function send(type: string, object: Record<string, unknown>, options: { eventId?: string; account?: string | null; secret?: string; timestamp?: number } = {}) {
  const { payload, header, event } = signedEvent(options.secret ?? SECRET, type, object, {
    ...(options.account === null ? {} : { account: options.account ?? ACCOUNT }),
    ...(options.eventId ? { eventId: options.eventId } : {}),
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
  const reply = await call(endpoint, { method: 'POST', body: payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header } });
  return { ...reply, eventId: event.id as string };
}

/** What the tables say changed: handled events, disputes (and their status), refunds, outbox events. */
const snapshot = async () =>
  (await gateway.db.sql.query<{ handled: number; disputes: number; statuses: string; refunds: number; events: number }>(sql`SELECT
    (SELECT count(*)::int FROM payment_provider_events) AS handled,
    (SELECT count(*)::int FROM payment_disputes) AS disputes,
    (SELECT coalesce(string_agg(id || ':' || status, ',' ORDER BY id), '') FROM payment_disputes) AS statuses,
    (SELECT count(*)::int FROM order_refunds) AS refunds,
    (SELECT count(*)::int FROM webhook_events) AS events`))[0]!;

/** Our events of `orderId` after it was placed (not `order.created`) that the merchant's endpoint received, verified, oldest first. */
async function delivered(orderId: string, atLeast: number): Promise<{ type: string; order: Order }[]> {
  const of = () =>
    receiver.requests
      .filter((r) => r.raw.toString().includes(orderId))
      .map((r) => verify(r.raw, r.headers['x-webhook-signature'], oursSecret) as { type: string; data: { object: Order } })
      .filter((e) => e.type !== 'order.created')
      .map((e) => ({ type: e.type, order: e.data.object }));
  await expect.poll(() => of().length).toBeGreaterThanOrEqual(atLeast);
  return of();
}

const dispute = (id: string, pi: string, status: string, created = Math.floor(Date.now() / 1000)) => ({
  id, object: 'dispute', amount: 9900, currency: 'usd', reason: 'fraudulent', status, charge: 'ch_1', payment_intent: pi, created, livemode: false,
});

describe('the signature', () => {
  it.each([
    ['missing', () => call(endpoint, { method: 'POST', body: '{"id":"evt_1","type":"charge.refunded"}', headers: { 'content-type': 'application/json' } })],
    ['made with another secret', () => send('charge.dispute.created', dispute('dp_forged', 'pi_forged', 'needs_response'), { secret: 'whsec_someone_else' })],
    ['older than the tolerance', () => send('charge.dispute.created', dispute('dp_stale', 'pi_stale', 'needs_response'), { timestamp: Math.floor(Date.now() / 1000) - 600 })],
  ])('%s: 400 invalid_request in our error shape, nothing changed', async (_name, request) => {
    const before = await snapshot();
    const reply = await request();
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', param: 'Stripe-Signature', detail: expect.stringMatching(/Stripe-Signature/) });
    expect(await snapshot()).toEqual(before);
  });

  it('is not behind an API key, and answers only POST', async () => {
    const reply = await call(endpoint);
    expect(reply.status).toBe(405);
    expect(reply.body).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('a dispute', () => {
  it('reaches the merchant as order.disputed once, however often Stripe delivers it; its later changes as order.updated', async () => {
    const order = await paidOrder('pi_disputed');
    const opened = await send('charge.dispute.created', dispute('dp_1', 'pi_disputed', 'needs_response'));
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({ received: true });
    const [event] = await delivered(order.id, 1);
    expect(event).toMatchObject({ type: 'order.disputed', order: { id: order.id } });

    const before = await snapshot();
    expect((await send('charge.dispute.created', dispute('dp_1', 'pi_disputed', 'needs_response'), { eventId: opened.eventId })).status).toBe(200);
    expect(await snapshot()).toEqual(before);

    const rows = await gateway.db.sql.query<{ status: string; amount: string; currency: string; order_id: string }>(sql`SELECT status, amount::text AS amount, currency, order_id FROM payment_disputes WHERE id = 'dp_1'`);
    expect(rows).toEqual([{ status: 'needs_response', amount: '9900', currency: 'USD', order_id: order.id }]);

    expect((await send('charge.dispute.closed', dispute('dp_1', 'pi_disputed', 'lost'))).status).toBe(200);
    const events = await delivered(order.id, 2);
    expect(events.map((e) => e.type)).toEqual(['order.disputed', 'order.updated']);
    expect((await snapshot()).statuses).toContain('dp_1:lost');
  });
});

describe('a refund made in Stripe', () => {
  it("becomes an order refund (reason other) and order.refunded; Stripe's total already recorded changes nothing", async () => {
    const order = await paidOrder('pi_refunded');
    const charge = { id: 'ch_refunded', object: 'charge', payment_intent: 'pi_refunded', amount: 10000, amount_refunded: 2500, currency: 'usd', refunds: { object: 'list', data: [{ id: 're_dash_1', amount: 2500, created: 1 }] } };
    expect((await send('charge.refunded', charge)).status).toBe(200);
    const [event] = await delivered(order.id, 1);
    expect(event).toMatchObject({ type: 'order.refunded', order: { refunded_amount: 25, refunds: [{ amount: 25, reason: 'other' }] } });
    const refunded = await gw.orders.retrieve(order.id);
    expect(refunded.refunded_amount).toBe(25);

    const before = await snapshot();
    expect((await send('charge.refunded', charge)).status).toBe(200); // a new event, the same total
    expect(await snapshot()).toEqual({ ...before, handled: before.handled + 1 });
  });
});

describe('events that change nothing', () => {
  it.each([
    ['from another connected account', 'charge.dispute.created', dispute('dp_other', 'pi_account_1', 'needs_response'), 'acct_someone_else'],
    ['from the platform account when the merchant has a connected one', 'charge.dispute.created', dispute('dp_platform', 'pi_account_2', 'needs_response'), null],
    ['of no order', 'charge.dispute.created', dispute('dp_none', 'pi_nobody', 'needs_response'), ACCOUNT],
    ['of a type the gateway does not handle', 'customer.created', { id: 'cus_1', object: 'customer' }, ACCOUNT],
  ] as const)('%s: 200, nothing recorded', async (_name, type, object, account) => {
    const pi = (object as { payment_intent?: string }).payment_intent;
    if (pi && pi !== 'pi_nobody') await paidOrder(pi);
    const before = await snapshot();
    const reply = await send(type, object as Record<string, unknown>, { account });
    expect(reply.status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  it("a live-mode event on a gateway that is not in production (Stripe sends a live Connect endpoint test events too, and the reverse): 200, nothing recorded", async () => {
    await paidOrder('pi_live_mode');
    const before = await snapshot();
    const payload = JSON.stringify({ ...stripeEvent('charge.dispute.created', dispute('dp_live', 'pi_live_mode', 'needs_response'), { account: ACCOUNT }), livemode: true });
    const header = new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const reply = await call(endpoint, { method: 'POST', body: payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } });
    expect(reply.status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });
});
