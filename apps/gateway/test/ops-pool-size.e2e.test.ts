/**
 * DATABASE_POOL_SIZE bounds what one replica holds on PostgreSQL: under concurrent load a `serve`
 * process opens at most the pool plus its one LISTEN connection (every channel shares it). PostgreSQL only (TEST_DATABASE_URL);
 * needs the built CLI.
 */
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let child: ChildProcess | undefined;

describe.skipIf(!process.env.TEST_DATABASE_URL)('DATABASE_POOL_SIZE (PostgreSQL)', () => {
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await db?.close();
  });

  it('keeps a replica within the pool size plus its LISTEN connections under concurrent load', async () => {
    const url = new URL(db.url!);
    url.searchParams.set('application_name', 'gw_pool_size_test'); // tells the replica's connections apart
    const env = { DATABASE_URL: url.toString(), GATEWAY_ENV: 'sandbox', HOST: '127.0.0.1', PORT: '0', DATABASE_POOL_SIZE: '2' };
    expect((await runCli(['merchants', 'create', 'pool-shop'], env)).code).toBe(0);
    const key = (await runCli(['keys', 'create', '--merchant', 'pool-shop', '--env', 'sandbox', '--tier', 'enterprise', '--rpm', '100000', '--rpd', '1000000'], env)).stdout.trim().split('\n').at(-1)!;
    const started = await startServe(env);
    child = started.child;
    const watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
    // Counted as each answer arrives (the others still in flight) and once after the load: a pool keeps its
    // connections open while idle (10 s), so a connection opened at any point of the load is still counted.
    let peak = 0;
    const count = async () => {
      const { rows } = await watcher.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'gw_pool_size_test'`);
      peak = Math.max(peak, rows[0]!.n);
    };
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${started.url}/checkout_sessions`, {
          method: 'POST',
          headers: { 'X-ACP-API-Key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ items: [{ product_id: `missing-${i}` }] }),
        }).then(async (r) => {
          await count();
          return r.status;
        }),
      ),
    );
    await count();
    await watcher.end();
    expect(new Set(statuses)).toEqual(new Set([404])); // every request reached the database
    expect(peak).toBeGreaterThanOrEqual(3); // the pool was used (and the LISTEN connections counted)…
    expect(peak).toBeLessThanOrEqual(2 + 1); // …within DATABASE_POOL_SIZE + the one LISTEN connection (keys, catalog, shipping profiles, discounts)
  }, 180_000);
});
