/**
 * Three `gateway serve` replicas (GATEWAY_ENV=production) over one PostgreSQL database and one
 * Redis agree with one another: keys created or revoked through the CLI, per-minute limits,
 * idempotency keys, inventory, and catalog imports.
 *
 * Run by cluster.test.ts on its cluster.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogFile } from '../support/fixtures.js';
import { stocked } from '../support/checkout.js';
import type { SharedCluster } from './support/shared-cluster.js';
import { keyOf, timeUntil, type Cluster } from './support/cluster.js';
import { call, createSession, MERCHANT } from './support/shop.js';

let cluster: Cluster;
let key: string;

const each = <T>(work: (base: string, i: number) => Promise<T>) => Promise.all(cluster.replicas.map((r, i) => work(r.url, i)));

export function consistencyChecks(shared: SharedCluster): void {
  describe('a cluster of three replicas', () => {
    beforeAll(() => {
      ({ cluster, key } = shared);
    });

    it('came up with all three started at once on the empty database, each migration applied once', async () => {
      expect(await Promise.all(cluster.replicas.map(async (r) => (await fetch(`${r.url}/readyz`)).status))).toEqual([200, 200, 200]);
      const migrations = await cluster.query<{ name: string; n: number }>('SELECT migration_name AS name, count(*)::int AS n FROM _prisma_migrations GROUP BY 1');
      expect(migrations.length).toBeGreaterThan(0);
      expect(migrations.filter((m) => m.n !== 1)).toEqual([]);
    });

    it('honours a key created or revoked through the CLI on every replica within 1 s', async () => {
      const created = keyOf(await cluster.cli(['keys', 'create', '--merchant', MERCHANT, '--env', 'production']));
      const accepted = await each((base) => timeUntil(async () => (await call(base, 'GET', '/acp/products/sofa', created.key)).status === 200, 3_000));
      for (let round = 0; round < 3; round++) await each(async (base) => expect((await call(base, 'GET', '/acp/products/sofa', created.key)).status).toBe(200)); // remembered now
      const revoked = await cluster.cli(['keys', 'revoke', created.id]);
      expect(revoked.code).toBe(0);
      const refused = await each((base) => timeUntil(async () => (await call(base, 'GET', '/acp/products/sofa', created.key)).status === 401, 3_000));
      console.log(`[cluster] after the CLI exited (ms until the first right answer was sent; 0 = the first request): key created → accepted by each replica after ${accepted.join(', ')} ms; revoked → refused after ${refused.join(', ')} ms`);
      expect(Math.max(...accepted)).toBeLessThanOrEqual(1_000);
      expect(Math.max(...refused)).toBeLessThanOrEqual(1_000);
    });

    it('holds a per-minute limit across replicas: exactly the limit passes, and the X-RateLimit-* headers agree', async () => {
      const limited = keyOf(await cluster.cli(['keys', 'create', '--merchant', MERCHANT, '--env', 'production', '--tier', 'enterprise', '--rpm', '30', '--rpd', '100000']));
      const answers = await Promise.all(
        Array.from({ length: 45 }, (_, i) => call(cluster.replicas[i % 3]!.url, 'GET', '/acp/products/lamp', limited.key)),
      );
      const passed = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 429);
      expect([passed.length, refused.length]).toEqual([30, 15]);
      expect(new Set(answers.map((a) => a.headers.get('x-ratelimit-limit')))).toEqual(new Set(['30']));
      // One counter: the 30 that passed saw 29, 28, … 0 remaining, each exactly once, whichever replica answered.
      expect(passed.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      expect(refused.every((a) => a.headers.get('x-ratelimit-remaining') === '0' && Number(a.headers.get('retry-after')) >= 1)).toBe(true);
      const resets = answers.map((a) => Number(a.headers.get('x-ratelimit-reset')));
      expect(Math.max(...resets) - Math.min(...resets)).toBeLessThanOrEqual(1);
      console.log(`[cluster] rpm 30, 45 requests over 3 replicas: ${passed.length} passed, ${refused.length} refused (429), one X-RateLimit-Reset ±${Math.max(...resets) - Math.min(...resets)} s`);
    });

    it('creates one session when the same Idempotency-Key reaches all three replicas at once; the others replay it or answer 409', async () => {
      const before = (await cluster.query<{ n: number }>('SELECT count(*)::int AS n FROM checkout_sessions'))[0]!.n;
      const outcomes = new Map<string, number>();
      for (let round = 0; round < 10; round++) {
        const idempotencyKey = `cluster-idem-${round}-${Date.now()}`;
        const body = { items: [{ product_id: 'rug', quantity: 1 + (round % 3) }] };
        const answers = await each((base) => call(base, 'POST', '/checkout_sessions', key, body, { 'Idempotency-Key': idempotencyKey }));
        const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') !== 'true');
        const replayed = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === 'true');
        const inFlight = answers.filter((a) => a.status === 409 && a.body?.code === 'idempotency_in_flight');
        expect(fresh).toHaveLength(1);
        expect(replayed.length + inFlight.length).toBe(2);
        for (const a of replayed) expect(a.body.checkout_session.id).toBe(fresh[0]!.body.checkout_session.id);
        for (const label of [...replayed.map(() => 'replayed'), ...inFlight.map(() => '409 in flight')]) outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
      }
      const after = (await cluster.query<{ n: number }>('SELECT count(*)::int AS n FROM checkout_sessions'))[0]!.n;
      expect(after - before).toBe(10);
      console.log(`[cluster] 10 Idempotency-Keys × 3 replicas at once: 10 sessions; the other answers ${[...outcomes].map(([k, v]) => `${k} ×${v}`).join(', ')}`);
    });

    it('never oversells: 30 concurrent completions over the replicas on a product with 7 units sell exactly 7', async () => {
      const sessions = await Promise.all(Array.from({ length: 30 }, (_, i) => createSession(cluster.replicas[i % 3]!.url, key, 'scarce')));
      const completions = await Promise.all(sessions.map((id, i) => call(cluster.replicas[i % 3]!.url, 'POST', `/checkout_sessions/${id}/complete`, key)));
      const statuses = completions.map((c) => c.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(7);
      expect(statuses.filter((s) => s !== 200 && s !== 400)).toEqual([]);
      const [left] = await cluster.query<{ quantity: number }>(`SELECT quantity FROM variants WHERE merchant_id = $1 AND sku = 'scarce-1'`, [MERCHANT]);
      const [orders] = await cluster.query<{ n: number }>(
        `SELECT count(DISTINCT o.id)::int AS n FROM orders o JOIN line_items li ON li.session_id = o.checkout_session_id WHERE li.variant_sku = 'scarce-1'`,
      );
      expect({ left: left!.quantity, orders: orders!.n }).toEqual({ left: 0, orders: 7 });
    });

    it('shows a catalog import through the CLI in every replica’s reads and search within 1 s', async () => {
      const word = `zanzibarite${Date.now() % 100_000}`;
      const fresh = [1, 2, 3].map((n) => stocked(`import-${word}-${n}`, [{ sku: `imp-${word}-${n}`, quantity: 5, price: 10 + n }], { title: `The ${word} chair ${n}` }));
      const repriced = stocked('lamp', [{ sku: 'lamp-white', quantity: 1_000_000, price: 31.25 }]);
      const imported = await cluster.cli(['catalog', 'import', catalogFile([...fresh, repriced]), '--merchant', MERCHANT]);
      expect(imported.code).toBe(0);
      const visible = await each((base) =>
        timeUntil(async () => {
          const [read, search, lamp] = await Promise.all([
            call(base, 'GET', `/acp/products/${fresh[2]!.id}`, key),
            call(base, 'GET', `/acp/products?q=${word}`, key),
            call(base, 'GET', '/acp/products/lamp', key),
          ]);
          return read.status === 200 && search.body?.total === 3 && lamp.body?.price === 31.25;
        }, 5_000),
      );
      console.log(`[cluster] catalog import via the CLI → in each replica's reads and search ${visible.join(', ')} ms after the CLI exited (0 = the first request)`);
      expect(Math.max(...visible)).toBeLessThanOrEqual(1_000);
    });
  });
}
