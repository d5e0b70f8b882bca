/**
 * Money survives `kill -9` (issue 36). `serve` (the built CLI) runs with PAYMENT_PROVIDER=stripe
 * against the Stripe double, and PAYMENT_FAULT_AT SIGKILLs it at one step of the payment path while
 * completions of our API run concurrently: after the authorization is recorded, after the PSP
 * authorized, after the order's commit, after the capture call (before its outcome is recorded).
 * A fresh process is started on the same database and its payment worker settles what was left
 * (PAYMENT_LEASE_SECONDS=1); the buyers who got no answer retry their completion. Then, against the
 * PSP's own state:
 * - every order's PaymentIntent was captured exactly once (PSP captures = orders);
 * - no PaymentIntent was captured twice;
 * - no authorization is left neither captured nor canceled;
 * - every order's payment (GET /orders/{id}) says what the PSP says.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaultStep } from '../../src/payments/operations/fault-injection.js';
import { exitOf, runCli, startServe } from '../support/cli.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { stocked } from '../support/checkout.js';
import { catalogFile } from '../support/fixtures.js';
import { call } from '../support/http.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const STEPS: FaultStep[] = ['authorize-recorded', 'psp-authorized', 'order-committed', 'capture-called'];
/** Completions at once in each round; the process dies the 3rd time it reaches the step, some before it, others in flight. */
const LOAD = 8;
const KILL_AT = 3;

let stripe: FakeStripe;
let db: TestDatabase | undefined;
let env: Record<string, string>;
let key: string;
const completions: { sessionId: string; intentId: string }[] = [];

beforeAll(async () => {
  stripe = await startFakeStripe();
  // On PostgreSQL (TEST_DATABASE_URL, as CI runs it): a killed process and its successor share the database.
  db = await createTestDatabase();
  if (!db.url) return;
  env = {
    DATABASE_URL: db.url,
    GATEWAY_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: '0',
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_51PlatformKey',
    STRIPE_WEBHOOK_SECRET: 'whsec_testsecret0123',
    STRIPE_API_URL: stripe.url,
    PAYMENT_LEASE_SECONDS: '1',
    WEBHOOK_WORKER: 'false',
  };
  expect((await runCli(['merchants', 'create', 'crash-shop'], env)).code).toBe(0);
  expect((await runCli(['merchants', 'payments', 'crash-shop', '--stripe-account', 'acct_1CrashShop00'], env)).code).toBe(0);
  // Limits above the load: with REDIS_URL (as CI runs it) the counts outlive each killed process.
  const created = await runCli(['keys', 'create', '--merchant', 'crash-shop', '--tier', 'enterprise', '--rpm', '100000', '--rpd', '10000000'], env);
  expect(created.code).toBe(0);
  key = created.stdout.trim().split('\n').at(-1)!;
  expect((await runCli(['catalog', 'import', catalogFile([stocked('mug', [{ price: 12, quantity: 10_000 }])]), '--merchant', 'crash-shop'], env)).code).toBe(0);
});

afterAll(async () => {
  await db?.close();
  await stripe?.stop();
});

const api = (url: string, path: string, json: unknown = {}) => call(`${url}${path}`, { method: 'POST', headers: { 'X-ACP-API-Key': key }, json });

/** A session whose PaymentIntent the buyer confirmed on the merchant's page. */
async function confirmedSession(url: string): Promise<{ sessionId: string; intentId: string }> {
  const created = await api(url, '/checkout_sessions', { items: [{ product_id: 'mug' }], shipping_address: { line1: '1 Main St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sessionId = (created.body as { checkout_session: { id: string } }).checkout_session.id;
  const intent = [...stripe.state.intents.values()].find((i) => i.metadata.session_id === sessionId)!;
  stripe.confirmByBuyer(intent.id);
  return { sessionId, intentId: intent.id };
}

/** Until `condition` holds, checked every 100 ms; the deadline is for a busy machine, not a figure asserted. */
async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 100 },
  );
}

/** Nothing left for the worker: no operation pending, no authorization unsettled (its lease still running). */
async function settled(): Promise<boolean> {
  const left = await db!.prisma.paymentOperation.count({
    where: { OR: [{ state: 'pending' }, { kind: 'authorize', state: 'succeeded', nextAttemptAt: { lt: new Date('9999-01-01T00:00:00Z') } }] },
  });
  return left === 0;
}

describe('kill -9 at each step of the payment path', () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('captures every order once, releases every other authorization, and the orders say what Stripe says', async () => {
    for (const step of STEPS) {
      const faulty = await startServe({ ...env, PAYMENT_FAULT_AT: `${step}:${KILL_AT}` });
      const sessions = [];
      for (let i = 0; i < LOAD; i++) sessions.push(await confirmedSession(faulty.url));
      completions.push(...sessions);
      await Promise.allSettled(sessions.map((s) => api(faulty.url, `/checkout_sessions/${s.sessionId}/complete`)));
      await exitOf(faulty.child as ChildProcess);
      expect((faulty.child as ChildProcess).signalCode, `the process was killed at ${step}`).toBe('SIGKILL');
      // A new process on the same database: its worker resolves what the dead one left, after the leases (1 s) expire.
      const fresh = await startServe(env);
      await until(() => settled(), `the worker to settle after a kill at ${step}`);
      // The buyers whose completion got no answer retry it: completed now, or refused (402) when the worker released their payment.
      const unanswered = [];
      for (const s of sessions) if (!(await db!.prisma.order.count({ where: { checkoutSessionId: s.sessionId } }))) unanswered.push(s);
      const retries = await Promise.all(unanswered.map((s) => api(fresh.url, `/checkout_sessions/${s.sessionId}/complete`)));
      for (const retry of retries) expect([200, 402], JSON.stringify(retry.body)).toContain(retry.status);
      await until(() => settled(), `the worker to settle the retries after a kill at ${step}`);
      fresh.child.kill('SIGTERM');
      await exitOf(fresh.child);
    }

    const checker = await startServe(env);
    const orders = await db!.prisma.order.findMany({ where: { checkoutSessionId: { in: completions.map((c) => c.sessionId) } } });
    expect(orders.length).toBeGreaterThan(0);
    const ordered = new Set(orders.map((o) => o.checkoutSessionId));
    for (const { sessionId, intentId } of completions) {
      const intent = stripe.intent(intentId);
      expect(stripe.count('capture', intentId), `${intentId} captured at most once`).toBeLessThanOrEqual(1);
      if (ordered.has(sessionId)) {
        expect(stripe.count('capture', intentId), `the order of ${sessionId} captured once`).toBe(1);
        expect(intent.status).toBe('succeeded');
      } else {
        expect(intent.status, `${intentId} of an unordered session is released`).toBe('canceled');
      }
    }
    expect([...stripe.state.intents.values()].filter((intent) => intent.status === 'requires_capture')).toEqual([]);
    for (const order of orders) {
      const shown = await call(`${checker.url}/orders/${order.id}`, { headers: { 'X-ACP-API-Key': key } });
      const intentId = completions.find((c) => c.sessionId === order.checkoutSessionId)!.intentId;
      expect(shown.body).toMatchObject({ payment: { provider: 'stripe', reference: intentId, status: 'captured' } });
    }
    checker.child.kill('SIGTERM');
    await exitOf(checker.child);
  });
});
