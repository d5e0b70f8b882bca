/**
 * Stripe's payment events move our orders' payments, on a gateway running PAYMENT_PROVIDER=stripe
 * against the Stripe double, with its webhook endpoint mounted from its own settings: a capture
 * whose answer was lost is confirmed by payment_intent.succeeded, an authorization canceled in
 * Stripe's dashboard is recorded by payment_intent.canceled — each `order.updated` at the
 * merchant's endpoint with the order's payment as Stripe now has it; payment_intent.payment_failed
 * of a session that never became an order changes nothing.
 */
import { verify } from '@commerce-gateway/webhooks';
import { CommerceGateway, type Order } from '@commerce-gateway/sdk';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/statement.js';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { stripeClientOptions } from './support/stripe-mock.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const ACCOUNT = 'acct_1MovesShop';
const SECRET = 'whsec_movesendpoint01';
let gateway: TestGateway;
let stripe: FakeStripe;
let gw: CommerceGateway;
let receiver: Receiver;
let worker: DeliveryWorker;
let oursSecret: string;

beforeAll(async () => {
  stripe = await startFakeStripe();
  gateway = await startTestGateway({ env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51PlatformKey', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: stripe.url } });
  await gateway.importProducts('shop', [stocked('chair', [{ price: 40, quantity: 100 }])]);
  await gateway.services.paymentAccounts.set('shop', ACCOUNT);
  gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['shop'] }), baseUrl: gateway.url, maxRetries: 0 });
  receiver = await startReceiver();
  const store = new WebhookStore(gateway.db);
  oursSecret = (await store.createEndpoint('shop', `${receiver.url}/ours`, 'whsec_ours_shop')).secret;
  worker = new DeliveryWorker({ store, allowPrivateTargets: true, permalinks: {}, schedule: [0, 50, 50, 50], pollIntervalMs: 10, timeoutMs: 2000, random: () => 0.5 });
  worker.start();
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await gateway?.close();
  await stripe?.stop();
});

const endpoint = () => `${gateway.url}/payments/stripe/webhooks`;

/** A session the buyer confirmed on the merchant's page, completed into an order while `fault` hit its capture. */
async function orderWithCaptureFault(fault: Parameters<FakeStripe['fault']>[0]): Promise<{ order: Order; pi: string }> {
  const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair', quantity: 1 }], shipping_address: SF_ADDRESS });
  const [row] = await gateway.db.sql.query<{ payment_reference: string }>(sql`SELECT payment_reference FROM checkout_sessions WHERE id = ${session.id}`);
  stripe.confirmByBuyer(row!.payment_reference);
  stripe.fault(fault);
  const completed = await gw.checkoutSessions.complete(session.id);
  stripe.clearFaults();
  return { order: await gw.orders.retrieve(completed.order!.id), pi: row!.payment_reference };
}

/** Our `order.updated` events of the order that reached the merchant, verified. */
async function updates(orderId: string, count: number): Promise<Order[]> {
  const of = () =>
    receiver.requests
      .filter((r) => r.raw.toString().includes(orderId))
      .map((r) => verify(r.raw, r.headers['x-webhook-signature'], oursSecret) as { type: string; data: { object: Order } })
      .filter((e) => e.type === 'order.updated')
      .map((e) => e.data.object);
  await expect.poll(() => of().length).toBeGreaterThanOrEqual(count);
  return of();
}

describe("Stripe's payment events", () => {
  it('payment_intent.succeeded confirms a capture whose answer was lost: the order is captured, order.updated says so, once', async () => {
    const { order, pi } = await orderWithCaptureFault({ kind: 'drop', when: 'after', times: 10, path: /\/capture$/ });
    expect(stripe.intent(pi).status).toBe('succeeded'); // Stripe captured it…
    expect(order.payment?.status).toBe('authorized'); // …and we do not know yet
    const reply = await stripe.sendWebhook(endpoint(), SECRET, 'payment_intent.succeeded', stripe.intentView(pi), { account: ACCOUNT });
    expect(reply.status).toBe(200);
    const [updated] = await updates(order.id, 1);
    expect(updated!.payment).toMatchObject({ status: 'captured', captured_amount: order.amounts.total });
    expect((await gw.orders.retrieve(order.id)).payment?.status).toBe('captured');
    expect(stripe.count('capture', pi)).toBe(1);
  });

  it("payment_intent.canceled records an authorization canceled in Stripe's dashboard: the order's payment is canceled", async () => {
    const { order, pi } = await orderWithCaptureFault({ kind: 500, times: 10, path: /\/capture$/ });
    const client = new Stripe('sk_test_51PlatformKey', stripeClientOptions(stripe.url));
    await client.paymentIntents.cancel(pi, {}, { stripeAccount: ACCOUNT }); // the dashboard
    const reply = await stripe.sendWebhook(endpoint(), SECRET, 'payment_intent.canceled', stripe.intentView(pi), { account: ACCOUNT });
    expect(reply.status).toBe(200);
    const [updated] = await updates(order.id, 1);
    expect(updated!.payment).toMatchObject({ status: 'canceled', captured_amount: 0 });
    const again = await stripe.sendWebhook(endpoint(), SECRET, 'payment_intent.canceled', stripe.intentView(pi), { account: ACCOUNT }); // a new event, the same fact
    expect(again.status).toBe(200);
    // The event was applied before Stripe got its answer, so whatever it emitted is in the outbox now; once the
    // worker has no delivery pending, the merchant's endpoint has everything it will get.
    await expect.poll(() => gateway.db.prisma.webhookDelivery.count({ where: { state: 'pending' } })).toBe(0);
    expect(await updates(order.id, 1)).toHaveLength(1);
  });

  it('payment_intent.payment_failed of a session that is no order changes nothing', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair', quantity: 1 }], shipping_address: SF_ADDRESS });
    const [row] = await gateway.db.sql.query<{ payment_reference: string }>(sql`SELECT payment_reference FROM checkout_sessions WHERE id = ${session.id}`);
    const before = await gateway.db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_events`);
    const reply = await stripe.sendWebhook(endpoint(), SECRET, 'payment_intent.payment_failed', stripe.intentView(row!.payment_reference), { account: ACCOUNT });
    expect(reply.status).toBe(200);
    expect(await gateway.db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_events`)).toEqual(before);
  });
});
