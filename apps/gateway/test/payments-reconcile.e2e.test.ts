/**
 * Reconciliation against the Stripe double (every request checked by stripe-mock) on a real
 * database: orders paid through our API with Stripe are compared with Stripe's PaymentIntents;
 * the drift a crash, a dashboard refund or an abandoned payment leaves is listed, and --repair
 * fixes it through payment operations (Stripe moves the money once) — from the service, the built
 * CLI (exit code 2 while drift is left; its part needs PostgreSQL, TEST_DATABASE_URL, to share the
 * gateway's database) and the admin API (audit-logged).
 */
import { CommerceGateway, type Order } from '@commerce-gateway/sdk';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/statement.js';
import { stocked, SF_ADDRESS } from './support/checkout.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { runCli } from './support/cli.js';
import { call } from './support/http.js';
import { stripeClientOptions } from './support/stripe-mock.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const ACCOUNT = 'acct_1ReconcileShop';
let gateway: TestGateway;
let stripe: FakeStripe;
let gw: CommerceGateway;

beforeAll(async () => {
  stripe = await startFakeStripe();
  gateway = await startTestGateway({
    env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51PlatformKey', STRIPE_WEBHOOK_SECRET: 'whsec_testsecret0123', STRIPE_API_URL: stripe.url },
  });
  await gateway.importProducts('shop', [stocked('chair', [{ price: 40, quantity: 100 }])]);
  await gateway.services.paymentAccounts.set('shop', ACCOUNT);
  gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['shop'] }), baseUrl: gateway.url, maxRetries: 0 });
}, 120_000);
afterAll(async () => {
  await gateway?.close();
  await stripe?.stop();
});

/** A session the buyer paid on the merchant's page (Stripe.js confirmed its PaymentIntent): its id and the intent's. */
async function confirmedSession(): Promise<{ sessionId: string; pi: string }> {
  const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair', quantity: 1 }], shipping_address: SF_ADDRESS });
  const [row] = await gateway.db.sql.query<{ payment_reference: string }>(sql`SELECT payment_reference FROM checkout_sessions WHERE id = ${session.id}`);
  stripe.confirmByBuyer(row!.payment_reference);
  return { sessionId: session.id, pi: row!.payment_reference };
}

async function paidOrder(): Promise<{ order: Order; pi: string }> {
  const { sessionId, pi } = await confirmedSession();
  const completed = await gw.checkoutSessions.complete(sessionId);
  await expect.poll(async () => (await gw.orders.retrieve(completed.order!.id)).payment?.status).toBe('captured');
  return { order: await gw.orders.retrieve(completed.order!.id), pi };
}

const reconcile = (repair = false) => gateway.services.reconciliation.reconcile({ since: new Date(Date.now() - 86_400_000), merchantId: 'shop', repair });
const driftOf = async (pi: string, repair = false) => (await reconcile(repair)).drift.filter((d) => d.reference === pi);

describe('reconcile', () => {
  it('finds nothing to say of an order paid and captured as recorded', async () => {
    const { pi } = await paidOrder();
    const report = await reconcile();
    expect(report.checked).toBeGreaterThanOrEqual(1);
    expect(report.drift.filter((d) => d.reference === pi)).toEqual([]);
  });

  it('lists an order authorized and never captured (its capture given up), and --repair captures it once', async () => {
    stripe.fault({ kind: 500, times: 100, path: /\/capture$/ });
    const { sessionId, pi } = await confirmedSession();
    const completed = await gw.checkoutSessions.complete(sessionId);
    stripe.clearFaults();
    // The capture was given up (a crash, an operator): recorded failed, Stripe still holds the authorization.
    await gateway.db.sql.execute(sql`UPDATE payment_operations SET state = 'failed', last_error = 'given up', next_attempt_at = '9999-12-31' WHERE session_id = ${sessionId} AND kind = 'capture'`);
    const [listed] = await driftOf(pi);
    expect(listed).toMatchObject({ kind: 'authorized_not_captured', orderId: completed.order!.id, repair: { action: 'capture' } });
    expect(stripe.intent(pi).status).toBe('requires_capture');

    const [repaired] = await driftOf(pi, true);
    expect(repaired?.repaired).toMatchObject({ done: true, detail: expect.stringMatching(/^capture done/) });
    expect(stripe.intent(pi).status).toBe('succeeded');
    expect(stripe.count('capture', pi)).toBe(1);
    expect((await gw.orders.retrieve(completed.order!.id)).payment).toMatchObject({ status: 'captured', captured_amount: 47.9 });
    expect(await driftOf(pi)).toEqual([]);
    expect(await driftOf(pi, true)).toEqual([]); // nothing moves twice
    expect(stripe.count('capture', pi)).toBe(1);
  });

  it("lists a refund made in Stripe's dashboard, and --repair records it on the order (order.refunded)", async () => {
    const { order, pi } = await paidOrder();
    const client = new Stripe('sk_test_51PlatformKey', stripeClientOptions(stripe.url));
    await client.refunds.create({ payment_intent: pi, amount: 1500 }, { stripeAccount: ACCOUNT });
    const [listed] = await driftOf(pi);
    expect(listed).toMatchObject({ kind: 'refunded_elsewhere', ours: { amount: 0n }, psp: { amount: 1500n }, repair: { action: 'record_refund', amount: 1500n } });

    const [repaired] = await driftOf(pi, true);
    expect(repaired?.repaired).toMatchObject({ done: true });
    const after = await gw.orders.retrieve(order.id);
    expect(after).toMatchObject({ refunded_amount: 15, refunds: [{ amount: 15, reason: 'other' }], payment: { refunded_amount: 15 } });
    expect(stripe.count('refund', pi)).toBe(1); // the dashboard's: nothing paid back twice
    expect(await driftOf(pi)).toEqual([]);
  });

  it('lists a payment authorized for a session abandoned without an order, and --repair releases it', async () => {
    const { sessionId, pi } = await confirmedSession();
    await gateway.db.sql.execute(sql`UPDATE checkout_sessions SET updated_at = updated_at - interval '2 hours', created_at = created_at - interval '2 hours' WHERE id = ${sessionId}`);
    const [listed] = await driftOf(pi);
    expect(listed).toMatchObject({ kind: 'authorized_without_order', orderId: null, sessionId, repair: { action: 'cancel' } });
    const [repaired] = await driftOf(pi, true);
    expect(repaired?.repaired).toMatchObject({ done: true });
    expect(stripe.intent(pi).status).toBe('canceled');
    expect(stripe.count('cancel', pi)).toBe(1);
    expect(await driftOf(pi)).toEqual([]);
  });
});

describe('POST /admin/merchants/{merchant_id}/payments/reconcile', () => {
  it('lists the drift for a full credential, repairs it with repair: true, and is audit-logged; a read-only credential is refused', async () => {
    const operators = gateway.services.admin.operators;
    const root = (await operators.create({ name: 'money', access: 'full', allMerchants: true })).token;
    const reader = (await operators.create({ name: 'viewer', access: 'read', allMerchants: true })).token;
    const post = (token: string, json: unknown, merchant = 'shop') =>
      call(`${gateway.url}/admin/merchants/${merchant}/payments/reconcile`, { method: 'POST', json, headers: { authorization: `Bearer ${token}` } });
    const { order, pi } = await paidOrder();
    const client = new Stripe('sk_test_51PlatformKey', stripeClientOptions(stripe.url));
    await client.refunds.create({ payment_intent: pi, amount: 1000 }, { stripeAccount: ACCOUNT });
    const today = new Date().toISOString().slice(0, 10);

    const listed = await post(root, { since: today });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ since: `${today}T00:00:00.000Z`, merchant_id: 'shop', unchecked: [] });
    expect(listed.body.drift.filter((d: { reference: string }) => d.reference === pi)).toEqual([
      { kind: 'refunded_elsewhere', merchant_id: 'shop', order_id: order.id, session_id: order.checkout_session_id, reference: pi, currency: 'USD', ours: { state: 'refunded', amount: 0 }, psp: { state: 'refunded', amount: 10 }, repair: { action: 'record_refund', amount: 10 }, repaired: null },
    ]);
    expect((await post(reader, { repair: true })).status).toBe(403);
    expect((await post(root, { since: 'yesterday' })).status).toBe(400);
    expect((await post(root, {}, 'nobody')).status).toBe(404);

    const repaired = await post(root, { since: today, repair: true });
    expect(repaired.body.drift.find((d: { reference: string }) => d.reference === pi)).toMatchObject({ repaired: { done: true } });
    expect((await gw.orders.retrieve(order.id)).refunded_amount).toBe(10);
    const audit = (await call(`${gateway.url}/admin/audit?limit=5`, { headers: { authorization: `Bearer ${root}` } })).body.items as { operation: string; target: string; merchant_id: string; outcome: string }[];
    expect(audit.filter((e) => e.operation === 'reconcilePayments').slice(0, 2)).toMatchObject([
      { target: 'repair', merchant_id: 'shop', outcome: 'succeeded' },
      { merchant_id: 'nobody' },
    ]);
  });
});

describe('gateway payments reconcile', () => {
  const env = () => ({
    DATABASE_URL: gateway.db.url,
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_51PlatformKey',
    STRIPE_WEBHOOK_SECRET: 'whsec_testsecret0123',
    STRIPE_API_URL: stripe.url,
  });

  it.each([
    [['--since', '2026-02-30'], /^error: --since must be a date as YYYY-MM-DD, like 2026-12-01; got "2026-02-30"$/],
    [['--since', '2999-01-01'], /^error: --since 2999-01-01 is in the future$/],
    [['--merchant', 'nobody'], /^error: no merchant "nobody"/],
  ])('refuses %j in one line', async (args, message) => {
    const refused = await runCli(['payments', 'reconcile', ...args], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(message);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  }, 120_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)('lists the drift (exit 2), repairs it with --repair (exit 0), and says so as JSON', async () => {
    await reconcile(true); // the earlier tests' drift repaired: only this test's is left
    const { sessionId, pi } = await confirmedSession();
    await gateway.db.sql.execute(sql`UPDATE checkout_sessions SET updated_at = updated_at - interval '2 hours' WHERE id = ${sessionId}`);
    const listed = await runCli(['payments', 'reconcile', '--merchant', 'shop'], env());
    expect(listed).toMatchObject({ code: 2, stderr: '1 drift left to look at (--repair fixes those with a repair)\n' });
    expect(listed.stdout).toMatch(new RegExp(`authorized_without_order +\\(session ${sessionId}\\) +${pi} +session open, no order 0\\.00 USD +authorized 47\\.90 USD +cancel 47\\.90 \\(--repair\\)`));
    const repaired = await runCli(['payments', 'reconcile', '--merchant', 'shop', '--repair', '--json'], env());
    expect(repaired.code).toBe(0);
    const report = JSON.parse(repaired.stdout) as { drift: { reference: string; repaired: { done: boolean } }[] };
    expect(report.drift.filter((d) => d.reference === pi)).toMatchObject([{ kind: 'authorized_without_order', repaired: { done: true } }]);
    expect(stripe.intent(pi).status).toBe('canceled');
    expect(stripe.count('cancel', pi)).toBe(1);
  }, 120_000);
});
