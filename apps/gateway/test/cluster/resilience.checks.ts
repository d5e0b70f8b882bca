/**
 * Three `gateway serve` replicas, each with the delivery worker it starts itself, behind a
 * round-robin proxy: webhooks exactly once (and through a receiver outage), a rolling restart
 * under SDK traffic, PostgreSQL taken away under load, and throughput with 1, 2 and 3 replicas.
 *
 * Run by cluster.test.ts on its cluster.
 */
import { cpus } from 'node:os';
import { CommerceGateway, CommerceGatewayError } from '@commerce-gateway/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { percentile, summarize, Traffic, type Sample } from '../fault/support/traffic.js';
import type { Receiver } from '../support/webhook-receiver.js';
import type { SharedCluster } from './support/shared-cluster.js';
import { sleep, timeUntil, type Cluster } from './support/cluster.js';
import { call, createSession, SF_ADDRESS } from './support/shop.js';

/** How long the webhook receiver is down. */
const OUTAGE_MS = 7_000;

let cluster: Cluster;
let receiver: Receiver;
let key: string;

/** The order.created event ids of these sessions, from the database. */
async function eventIdsOf(sessionIds: string[]): Promise<string[]> {
  const rows = await cluster.query<{ id: string }>(
    `SELECT id FROM webhook_events WHERE type = 'order.created' AND payload::jsonb -> 'data' -> 'object' ->> 'id' = ANY($1)`,
    [sessionIds],
  );
  return rows.map((r) => r.id);
}

/** Waits until the receiver has every one of `eventIds` (then a little longer, for duplicates); returns how often each arrived. */
async function deliveries(eventIds: string[], limitMs = 60_000): Promise<Map<string, number>> {
  const count = () => {
    const seen = new Map<string, number>();
    for (const request of receiver.requests) seen.set(request.json?.id, (seen.get(request.json?.id) ?? 0) + 1);
    return seen;
  };
  await timeUntil(async () => eventIds.every((id) => count().has(id)), limitMs);
  await sleep(2_000);
  return count();
}

function succeededAttempts(metrics: string): number {
  return Number(/gateway_webhook_attempts_total\{outcome="succeeded"\} (\d+)/.exec(metrics)?.[1] ?? 0);
}

/** Checkout through the proxy by `clients` loops until `running()` is false: create, then complete. */
async function checkoutLoad(clients: number, running: () => boolean, onCompleted: (id: string) => void): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let n = c; running(); n += clients) {
        const id = await createSession(cluster.lb.url, key, ['sofa', 'lamp', 'rug'][n % 3]);
        const done = await call(cluster.lb.url, 'POST', `/checkout_sessions/${id}/complete`, key);
        if (done.status !== 200) throw new Error(`complete: ${done.status} ${JSON.stringify(done.body)}`);
        onCompleted(id);
      }
    }),
  );
}

export function resilienceChecks(shared: SharedCluster): void {
  describe('a cluster of three replicas under faults', () => {
    beforeAll(() => {
      ({ cluster, receiver, key } = shared);
    });

    it('delivers each of 300 events exactly once with every replica’s worker running, through a receiver outage', async () => {
      const completed: string[] = [];
      const t0 = performance.now();
      const outage = (async () => {
        await timeUntil(async () => completed.length >= 60, 60_000);
        await receiver.down();
        const downAt = Math.round(performance.now() - t0);
        await sleep(OUTAGE_MS); // longer than the default schedule's 5 s step: without WEBHOOK_RETRY_SCHEDULE the next try would be 5 min away
        await receiver.up();
        return downAt;
      })();
      await checkoutLoad(10, () => completed.length < 300, (id) => completed.push(id));
      const downAt = await outage;
      const eventIds = await eventIdsOf(completed);
      expect(eventIds).toHaveLength(completed.length);
      const seen = await deliveries(eventIds);
      const retried = await cluster.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ANY($1) AND attempt_count > 1`,
        [eventIds],
      );
      const perReplica = await Promise.all(cluster.replicas.map(async (r) => succeededAttempts(await (await fetch(`${r.url}/metrics`)).text())));
      console.log(
        `[cluster] ${completed.length} orders → ${eventIds.length} events; receiver down for ${OUTAGE_MS / 1000} s from ${downAt} ms; ` +
          `received ${eventIds.filter((id) => seen.get(id) === 1).length} exactly once, ${retried[0]!.n} after a retry; successful attempts by replica ${perReplica.join(' / ')}`,
      );
      expect(eventIds.filter((id) => seen.get(id) !== 1)).toEqual([]);
      expect(retried[0]!.n).toBeGreaterThan(0); // the outage was felt, and recovered from
      expect(perReplica.every((n) => n > 0)).toBe(true); // every replica's worker took part
    });

    it('loses nothing in a rolling restart (SIGTERM to each replica in turn) under steady SDK traffic', async () => {
      const gw = new CommerceGateway({ apiKey: key, baseUrl: cluster.lb.url, onResponse: (e) => e.attempt > 0 && retries.push(`${e.operation} ${e.status}`) });
      const retries: string[] = [];
      const failures: string[] = [];
      const completed: string[] = [];
      let calls = 0;
      let running = true;
      const client = async (c: number) => {
        for (let n = c; running; n++) {
          try {
            calls += 3;
            await gw.products.retrieve(['sofa', 'lamp', 'rug'][n % 3]!);
            const session = await gw.checkoutSessions.create({ items: [{ product_id: 'lamp', quantity: 1 }], shipping_address: SF_ADDRESS });
            const done = await gw.checkoutSessions.complete(session.id);
            completed.push(done.id);
          } catch (error) {
            failures.push(error instanceof CommerceGatewayError ? `${error.status} ${error.code}: ${error.message}` : String(error));
          }
        }
      };
      const traffic = Promise.all(Array.from({ length: 6 }, (_, c) => client(c)));
      const restarts: string[] = [];
      for (const replica of cluster.replicas) {
        await sleep(1_500);
        const t = performance.now();
        const code = await replica.stop('SIGTERM');
        const stoppedMs = Math.round(performance.now() - t);
        await replica.start();
        restarts.push(`${replica.name}: exit ${code} after ${stoppedMs} ms, back after ${Math.round(performance.now() - t)} ms`);
        expect(code).toBe(0);
      }
      await sleep(1_500);
      running = false;
      await traffic;
      const eventIds = await eventIdsOf(completed);
      const orders = await cluster.query<{ id: string; n: number }>(
        `SELECT s.id, count(o.id)::int AS n FROM checkout_sessions s LEFT JOIN orders o ON o.checkout_session_id = s.id WHERE s.id = ANY($1) GROUP BY s.id`,
        [completed],
      );
      const seen = await deliveries(eventIds);
      console.log(
        `[cluster] rolling restart: ${restarts.join('; ')}\n[cluster] ${calls} SDK calls, ${failures.length} failed, ${retries.length} retried ` +
          `(${[...new Set(retries)].join(', ')}); proxy 502s ${cluster.lb.badGateways}; ${completed.length} orders, ${eventIds.length} events, all received once: ${eventIds.every((id) => seen.get(id) === 1)}`,
      );
      expect(failures).toEqual([]);
      expect(completed.length).toBeGreaterThan(20);
      expect(orders.filter((o) => o.n !== 1)).toEqual([]);
      expect(orders).toHaveLength(completed.length);
      expect(eventIds).toHaveLength(completed.length);
      expect(eventIds.filter((id) => seen.get(id) !== 1)).toEqual([]);
    });

    it('answers 503 on every replica while PostgreSQL is away, recovers by itself, and keeps every completed session whole', async () => {
      const traffic = new Traffic();
      const CUT_AT = 3_000;
      const DOWN_MS = 6_000;
      const END_AT = CUT_AT + DOWN_MS + 9_000;
      let down = { from: Infinity, to: Infinity };
      const readiness: (Sample & { replica: string })[] = [];
      const load = async (seed: number) => {
        for (let n = seed; traffic.now() < END_AT; n++) {
          const created = await traffic.send('create', `${cluster.lb.url}/checkout_sessions`, {
            method: 'POST',
            key,
            json: { items: [{ product_id: ['sofa', 'rug'][n % 2], quantity: 1 }], shipping_address: SF_ADDRESS },
          });
          if (created.status === 201) await traffic.send('complete', `${cluster.lb.url}/checkout_sessions/${created.body.checkout_session.id}/complete`, { method: 'POST', key });
          else await sleep(100);
        }
      };
      const probe = async (replica: Cluster['replicas'][number]) => {
        while (traffic.now() < END_AT) {
          const sample = await traffic.send('readyz', `${replica.url}/readyz`);
          readiness.push({ ...sample, replica: replica.name });
          await sleep(250);
        }
      };
      const outage = async () => {
        await sleep(CUT_AT);
        await cluster.pgProxy.cut();
        down = { from: traffic.now(), to: Infinity };
        await sleep(DOWN_MS);
        await cluster.pgProxy.restore();
        down = { ...down, to: traffic.now() };
      };
      await Promise.all([...Array.from({ length: 8 }, (_, i) => load(i)), ...cluster.replicas.map(probe), outage()]);

      const requests = traffic.samples.filter((s) => s.op !== 'readyz');
      const whileDown = requests.filter((s) => s.at > down.from + 500 && s.at + s.ms < down.to);
      const after = requests.filter((s) => s.at > down.to + 3_000);
      console.log(
        [
          `[cluster] PostgreSQL cut (TCP proxy: connections dropped, new ones refused) from ${(down.from / 1000).toFixed(1)} s to ${(down.to / 1000).toFixed(1)} s`,
          ...summarize(requests, [
            { name: 'before', from: 0, to: down.from },
            { name: 'PostgreSQL away', from: down.from, to: down.to },
            { name: 'first 3 s back', from: down.to, to: down.to + 3_000 },
            { name: 'after that', from: down.to + 3_000, to: Infinity },
          ]).map((line) => `[cluster] ${line}`),
        ].join('\n'),
      );
      expect(requests.filter((s) => s.status <= 0)).toEqual([]); // no hang, no dropped connection
      expect(requests.filter((s) => s.status >= 500 && s.status !== 503).map((s) => `${s.op} ${s.status} ${s.code}`)).toEqual([]);
      expect(whileDown.length).toBeGreaterThan(30);
      expect(whileDown.filter((s) => s.status !== 503).map((s) => `${s.op} ${s.status} ${s.code}`)).toEqual([]);
      expect(percentile(whileDown.map((s) => s.ms), 99)).toBeLessThan(2_000);
      for (const replica of cluster.replicas) {
        const mine = readiness.filter((r) => r.replica === replica.name);
        expect(mine.filter((r) => r.at > down.from + 500 && r.at + r.ms < down.to).some((r) => r.status === 503)).toBe(true);
        // Ready again by itself (the last probes; on a loaded machine a single probe may still hit its 2 s bound).
        expect(mine.slice(-2).map((r) => r.status)).toEqual([200, 200]);
        // Recovered by itself: each replica takes a checkout again.
        const id = await createSession(replica.url, key);
        expect((await call(replica.url, 'POST', `/checkout_sessions/${id}/complete`, key)).status).toBe(200);
      }
      expect(after.filter((s) => s.op === 'complete' && s.status === 200).length).toBeGreaterThan(10);
      expect(after.filter((s) => s.status >= 500)).toEqual([]);
      // The books: no completed session without exactly one order and one order.created event.
      // Each event's payload is read once (grouped by its session), not once per session: the payloads
      // carry whole sessions and the suite leaves over a thousand of each.
      const broken = await cluster.query<{ id: string; orders: number; events: number }>(`
        WITH placed AS (SELECT checkout_session_id AS id, count(*)::int AS n FROM orders GROUP BY 1),
             sent AS (SELECT e.payload::jsonb -> 'data' -> 'object' ->> 'id' AS id, count(*)::int AS n
                      FROM webhook_events e WHERE e.type = 'order.created' GROUP BY 1)
        SELECT s.id, coalesce(placed.n, 0) AS orders, coalesce(sent.n, 0) AS events
        FROM checkout_sessions s LEFT JOIN placed ON placed.id = s.id LEFT JOIN sent ON sent.id = s.id
        WHERE s.status = 'completed' AND (coalesce(placed.n, 0) <> 1 OR coalesce(sent.n, 0) <> 1)`);
      expect(broken).toEqual([]);
    });

    it('prints throughput through the proxy with 1, 2 and 3 replicas', async () => {
      const SECONDS = 4;
      const CONNECTIONS = 16;
      const run = async (base: string) => {
        const latencies: number[] = [];
        let errors = 0;
        const end = performance.now() + SECONDS * 1000;
        await Promise.all(
          Array.from({ length: CONNECTIONS }, async () => {
            while (performance.now() < end) {
              const t = performance.now();
              const response = await fetch(`${base}/acp/products/sofa`, { headers: { 'X-ACP-API-Key': key } });
              await response.arrayBuffer();
              if (response.status === 200) latencies.push(performance.now() - t);
              else errors++;
            }
          }),
        );
        return { rps: latencies.length / SECONDS, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
      };
      const lines: string[] = [];
      const direct = await run(cluster.replicas[0]!.url);
      lines.push(`one replica, no proxy      ${direct.rps.toFixed(0).padStart(6)} req/s   p50 ${direct.p50.toFixed(1)} ms   p99 ${direct.p99.toFixed(1)} ms`);
      const figures: number[] = [];
      for (const n of [1, 2, 3]) {
        cluster.lb.setUpstreams(cluster.replicas.slice(0, n).map((r) => r.url));
        const result = await run(cluster.lb.url);
        figures.push(result.rps);
        expect(result.errors).toBe(0);
        lines.push(`${n} replica(s) behind proxy ${result.rps.toFixed(0).padStart(6)} req/s   p50 ${result.p50.toFixed(1)} ms   p99 ${result.p99.toFixed(1)} ms`);
      }
      cluster.lb.setUpstreams(cluster.replicas.map((r) => r.url));
      console.log(
        `[cluster] throughput, GET /acp/products/{id}, ${CONNECTIONS} connections × ${SECONDS} s, ${cpus().length} CPU cores shared by the load generator, the proxy, PostgreSQL, Redis and the replicas:\n` +
          lines.map((l) => `[cluster]   ${l}`).join('\n'),
      );
      expect(figures.every((rps) => rps > 0)).toBe(true);
    });
  });
}
