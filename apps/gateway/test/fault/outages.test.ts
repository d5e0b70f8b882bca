/**
 * Faults, for real, on a PostgreSQL cluster and a Redis server of this suite's
 * own (free loopback ports, a temporary directory; the machine's shared ones
 * are never touched):
 *  - PostgreSQL stopped for 10 s in the middle of a checkout load, then started:
 *    503 service_unavailable while it is down (never a hang, never a 500), /readyz
 *    unready and ready again, recovery without a restart, and afterwards every
 *    session answered `completed` has exactly one order and its inventory
 *    decrement, and no other session has either.
 *  - Redis killed under load: rate limits fail open (requests pass, logged), no
 *    5xx, and are enforced again once Redis is back.
 *
 * The stack (the gateway on its own cluster and Redis, a webhook receiver) is started by
 * ./support/fault-gateway.ts, once for both; what a run prints comes from ./support/report.ts.
 *
 *   pnpm --filter @commerce-gateway/gateway test:fault     (not part of `pnpm test`; CI runs it after)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyService } from '../../src/auth/key-service.js';
import type { RunningGateway } from '../../src/server.js';
import { SF_ADDRESS, stocked } from '../support/checkout.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { startFaultGateway, type FaultGateway, type LogLine } from './support/fault-gateway.js';
import { count, timeline, unhandledErrors } from './support/report.js';
import { missingBinaries, type ThrowawayPostgres, type ThrowawayRedis } from './support/throwaway-services.js';
import { percentile, sleep, summarize, Traffic, type Sample } from './support/traffic.js';

const missing = missingBinaries();
/** CI (`CI=true`) runs this suite on every run: there a missing binary fails it instead of skipping quietly. */
const required = process.env.CI === 'true' || process.env.CI === '1';
const INSTALL = `${missing.join(', ')} not found. Install PostgreSQL and Redis (apt-get install postgresql redis-server) to run the fault suite.`;
if (missing.length && !required) console.warn(`[fault] SKIPPED: ${INSTALL}`);

describe.runIf(missing.length > 0 && required)('faults (CI)', () => {
  it('has PostgreSQL and Redis to stop and start', () => {
    throw new Error(`[fault] ${INSTALL} CI=true requires the fault suite to run.`);
  });
});

const MERCHANT = 'fault-shop';
/** /readyz's status is refreshed at most once a second (ops/readiness.ts), plus a round of probes. */
const READINESS_LAG_MS = 1_500;
/** Plenty of stock, and one product that runs out during the run (its refusals must not sell anything). */
const PRODUCTS = [
  stocked('sofa', [{ sku: 'sofa-grey', quantity: 1_000_000, price: 499 }]),
  stocked('lamp', [{ sku: 'lamp-white', quantity: 1_000_000, price: 29.5 }, { sku: 'lamp-black', quantity: 1_000_000, price: 31 }]),
  stocked('rug', [{ sku: 'rug-wool', quantity: 1_000_000, price: 120 }]),
  stocked('vase', [{ sku: 'vase-rare', quantity: 40, price: 75 }]),
];
const SKUS = PRODUCTS.flatMap((p) => p.variants.map((v) => ({ productId: p.id, sku: v.sku, quantity: v.inventory.quantity })));

let pgc: ThrowawayPostgres;
let redis: ThrowawayRedis;
let receiver: Receiver;
let gateway: RunningGateway;
let keys: KeyService;
let logs: LogLine[] = [];
let stack: FaultGateway | undefined;

describe.skipIf(missing.length > 0)('faults (own PostgreSQL and Redis)', () => {
  beforeAll(async () => {
    stack = await startFaultGateway(MERCHANT, PRODUCTS);
    ({ pgc, redis, receiver, gateway, keys, logs } = stack);
  }, 180_000);

  afterAll(() => stack?.close());

  const key = (rpm = 10_000_000) => keys.create({ merchantIds: [MERCHANT], env: 'sandbox', scopes: ['*'], tier: 'enterprise', rpm, rpd: 100_000_000 }).then((k) => k.key);

  it('PostgreSQL stopped for 10 s under checkout load: 503 while down, recovers, no order lost or doubled', async () => {
    const apiKey = await key();
    const traffic = new Traffic();
    const sessions = new Map<string, { completeStatus?: number; completed?: boolean }>();
    const readiness: Sample[] = [];
    const STOP_AT = 8_000;
    const DOWN_MS = 10_000;
    const END_AT = STOP_AT + DOWN_MS + 12_000;
    /** from: stop asked; down: stop done; up: start asked; to: start done. */
    let pgDown = { from: Infinity, down: Infinity, up: Infinity, to: Infinity };

    const worker = async (seed: number) => {
      let n = seed;
      while (traffic.now() < END_AT) {
        n++;
        const line = SKUS[n % SKUS.length]!;
        const items = [{ product_id: line.productId, variant_sku: line.sku, quantity: 1 + (n % 3) }];
        const created = await traffic.send('create', `${gateway.url}/checkout_sessions`, { method: 'POST', key: apiKey, json: { items, shipping_address: SF_ADDRESS } });
        if (created.status === 201) {
          const id = created.body.checkout_session.id as string;
          sessions.set(id, {});
          const done = await traffic.send('complete', `${gateway.url}/checkout_sessions/${id}/complete`, { method: 'POST', key: apiKey });
          sessions.set(id, { completeStatus: done.status, completed: done.status === 200 && done.body?.checkout_session?.status === 'completed' });
          if (done.status >= 500 || done.status <= 0) await sleep(100);
        } else if (created.status >= 500 || created.status <= 0) {
          await sleep(100);
        }
      }
    };
    const probeReadiness = async () => {
      while (traffic.now() < END_AT) {
        const at = traffic.now();
        const reply = await fetch(`${gateway.url}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
          async (r) => ({ status: r.status, body: await r.json() }),
          () => ({ status: 0, body: undefined }),
        );
        readiness.push({ at, op: 'readyz', status: reply.status, ms: traffic.now() - at, code: reply.body?.checks?.database, body: reply.body });
        await sleep(250);
      }
    };
    const outage = async () => {
      await sleep(STOP_AT);
      const from = traffic.now();
      await pgc.stop();
      const down = traffic.now();
      pgDown = { from, down, up: Infinity, to: Infinity };
      await sleep(DOWN_MS - (traffic.now() - from));
      const up = traffic.now();
      await pgc.start();
      pgDown = { from, down, up, to: traffic.now() };
    };

    await Promise.all([...Array.from({ length: 8 }, (_, i) => worker(i * 97)), probeReadiness(), outage()]);

    const all = traffic.samples;
    const whileDown = all.filter((s) => s.at > pgDown.down && s.at + s.ms < pgDown.up);
    const afterRecovery = all.filter((s) => s.at > pgDown.to + 3_000);
    console.log(
      [
        `[fault] PostgreSQL stopping at ${(pgDown.from / 1000).toFixed(1)} s, down at ${(pgDown.down / 1000).toFixed(1)} s, starting at ${(pgDown.up / 1000).toFixed(1)} s, up at ${(pgDown.to / 1000).toFixed(1)} s; ${sessions.size} sessions, 8 clients`,
        ...summarize(all, [
          { name: 'before the outage', from: 0, to: pgDown.from },
          { name: 'PostgreSQL down', from: pgDown.from, to: pgDown.to },
          { name: 'first 3 s after restart', from: pgDown.to, to: pgDown.to + 3_000 },
          { name: 'after that', from: pgDown.to + 3_000, to: Infinity },
        ]),
        `[fault] /readyz: ${timeline(readiness)}`,
        ...unhandledErrors(logs).map((line) => `[fault] 500 logged: ${line}`),
      ].join('\n'),
    );

    // Never a hang, never a 500: while down every answer is a fast 503 service_unavailable.
    expect(all.filter((s) => s.status <= 0)).toEqual([]);
    expect(all.filter((s) => s.status >= 500 && s.status !== 503).map((s) => `${s.op} ${s.status} ${s.code}`)).toEqual([]);
    expect(whileDown.length).toBeGreaterThan(50);
    expect(whileDown.filter((s) => s.status !== 503 || s.code !== 'service_unavailable').map((s) => `${s.op} ${s.status} ${s.code}`)).toEqual([]);
    expect(percentile(whileDown.map((s) => s.ms), 99)).toBeLessThan(2_000);
    expect(Math.max(...all.map((s) => s.ms))).toBeLessThan(10_000);
    // Recovers by itself.
    expect(afterRecovery.filter((s) => s.op === 'complete' && s.status === 200).length).toBeGreaterThan(20);
    expect(afterRecovery.filter((s) => s.status >= 500)).toEqual([]);
    // /readyz: ready, unready while down (database unreachable), ready again. Its status is refreshed at
    // most once a second (one round of probes shared by every caller): it may say what it saw up to a
    // second (and a round's few milliseconds) before.
    expect(readiness.filter((r) => r.at < pgDown.from).every((r) => r.status === 200)).toBe(true);
    expect(readiness.filter((r) => r.at > pgDown.down + READINESS_LAG_MS && r.at + r.ms < pgDown.up).every((r) => r.status === 503 && r.body.checks.database !== 'ok')).toBe(true);
    expect(readiness.filter((r) => r.at > pgDown.to + 3_000).every((r) => r.status === 200)).toBe(true);
    expect(Math.max(...readiness.map((r) => r.ms))).toBeLessThan(2_500);

    // The books: exactly one order per session answered completed, none for the others, inventory conserved.
    const rows = await pgc.query<{ id: string; status: string; orders: number }>(
      `SELECT s.id, s.status::text, count(o.id)::int AS orders FROM checkout_sessions s LEFT JOIN orders o ON o.checkout_session_id = s.id GROUP BY s.id, s.status`,
    );
    const inDb = new Map(rows.map((r) => [r.id, r]));
    const answeredCompleted = [...sessions].filter(([, s]) => s.completed).map(([id]) => id);
    const answeredOtherwise = [...sessions].filter(([, s]) => !s.completed).map(([id]) => id);
    const ambiguous = answeredOtherwise.filter((id) => inDb.get(id)?.status === 'completed');
    console.log(`[fault] sessions answered completed: ${answeredCompleted.length}; not completed: ${answeredOtherwise.length} (of which completed in the database after all: ${ambiguous.length})`);
    expect(answeredCompleted.length).toBeGreaterThan(20);
    expect(answeredCompleted.filter((id) => inDb.get(id)?.status !== 'completed' || inDb.get(id)?.orders !== 1)).toEqual([]);
    expect(answeredOtherwise.filter((id) => (inDb.get(id)?.orders ?? 0) !== 0 || inDb.get(id)?.status === 'completed')).toEqual([]);
    expect(rows.filter((r) => r.orders > 1)).toEqual([]);

    const sold = await pgc.query<{ sku: string; sold: number }>(
      `SELECT li.variant_sku AS sku, sum(li.quantity)::int AS sold FROM line_items li JOIN orders o ON o.checkout_session_id = li.session_id GROUP BY li.variant_sku`,
    );
    const left = await pgc.query<{ sku: string; quantity: number }>(`SELECT sku, quantity FROM variants WHERE merchant_id = $1`, [MERCHANT]);
    const soldBySku = new Map(sold.map((r) => [r.sku, r.sold]));
    for (const { sku, quantity } of SKUS) {
      expect({ sku, left: left.find((r) => r.sku === sku)?.quantity }).toEqual({ sku, left: quantity - (soldBySku.get(sku) ?? 0) });
    }
    expect(left.find((r) => r.sku === 'vase-rare')!.quantity).toBeGreaterThanOrEqual(0);
    const events = await pgc.query<{ orders: number; events: number }>(
      `SELECT (SELECT count(*)::int FROM orders) AS orders, (SELECT count(*)::int FROM webhook_events WHERE type = 'order.created') AS events`,
    );
    expect(events[0]!.events).toBe(events[0]!.orders);
    // The outbox worker kept delivering order.created to the merchant's endpoint, counted by outcome.
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    console.log(`[fault] ${metrics.split('\n').filter((l) => /^gateway_(webhook_attempts_total|outbox_)/.test(l)).join('; ')}; receiver got ${receiver.requests.length}`);
    expect(Number(/gateway_webhook_attempts_total\{outcome="succeeded"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThan(0);
  }, 120_000);

  it('Redis killed under load: rate limits fail open (logged), no 5xx, enforced again once it is back', async () => {
    const loadKey = await key();
    const traffic = new Traffic();
    const product = `${gateway.url}/acp/products/sofa`;
    const burst = async (rpm: number, count: number) => {
      const limited = await key(rpm);
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) statuses.push((await traffic.send('limited', product, { key: limited })).status);
      return statuses;
    };
    let running = true;
    const load = async () => {
      while (running) await traffic.send('load', product, { key: loadKey });
    };
    const workers = Array.from({ length: 6 }, load);
    const logsBefore = logs.length;

    const up = await burst(20, 30);
    await sleep(1_000);
    const killedAt = traffic.now();
    await redis.stop();
    await sleep(500);
    const down = await burst(20, 30);
    await sleep(3_000);
    const restartedAt = traffic.now();
    await redis.start();
    let again: number[] = [];
    for (let tries = 0; tries < 20 && !again.includes(429); tries++) {
      await sleep(500);
      again = await burst(20, 30);
    }
    running = false;
    await Promise.all(workers);

    const failOpenLogs = logs.slice(logsBefore).filter((l) => /fail open|let through/.test(l.msg));
    console.log(
      [
        `[fault] Redis killed at ${(killedAt / 1000).toFixed(1)} s, restarted at ${(restartedAt / 1000).toFixed(1)} s`,
        ...summarize(traffic.samples.filter((s) => s.op === 'load'), [
          { name: 'load, Redis up', from: 0, to: killedAt },
          { name: 'load, Redis down', from: killedAt, to: restartedAt },
          { name: 'load, Redis back', from: restartedAt, to: Infinity },
        ]),
        `[fault] a key limited to 20/min, 30 requests: Redis up ${count(up)}; down ${count(down)}; back ${count(again)}`,
        `[fault] fail-open log lines: ${failOpenLogs.length} (${[...new Set(failOpenLogs.map((l) => l.msg))].join(' | ')})`,
      ].join('\n'),
    );

    expect(traffic.samples.filter((s) => s.status >= 500 || s.status <= 0)).toEqual([]);
    expect(up.filter((s) => s === 200)).toHaveLength(20);
    expect(up.filter((s) => s === 429)).toHaveLength(10);
    expect(down.every((s) => s === 200)).toBe(true); // fails open: the documented direction
    expect(failOpenLogs.some((l) => l.msg === 'redis unavailable: rate limits fail open until it is back')).toBe(true);
    expect(again.filter((s) => s === 429).length).toBeGreaterThan(0); // enforced again
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    const refused = [...up, ...down, ...again].filter((s) => s === 429).length;
    expect(Number(/gateway_rate_limit_refusals_total\{window="minute"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(refused);
  }, 120_000);
});
