/**
 * Replicas never race migrations (PostgreSQL only: the embedded database has one process):
 * several `serve` processes started at once on an empty database all come up, and a replica
 * started while another process migrates for longer than Prisma's own 10 s lock timeout waits
 * for it instead of exiting. Needs the built CLI and TEST_DATABASE_URL.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK_KEY } from '../src/db/migration-lock.js';
import { endChildren, runCli, startServe } from './support/cli.js';

/** The advisory lock Prisma's schema engine takes while it migrates. */
const PRISMA_MIGRATE_LOCK = 72707369;
let empty: { url: string; drop(): Promise<void> } | undefined;

async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  // A migrated test database has its schema; for an empty one, make a sibling and drop it after.
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const name = `gw_migrate_lock_${Math.random().toString(36).slice(2, 10)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

const serveEnv = (url: string) => ({ DATABASE_URL: url, GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'http://127.0.0.1', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' });

describe.skipIf(!process.env.TEST_DATABASE_URL)('migrations with several replicas (PostgreSQL)', () => {
  beforeEach(async () => {
    empty = await emptyDatabase();
  });
  afterEach(async () => {
    await endChildren((startedByTest) => startedByTest); // before its database goes
    await empty?.drop();
  });

  it('three replicas started at once on an empty database all come up, and the schema is migrated once', async () => {
    const started = await Promise.all([1, 2, 3].map(() => startServe(serveEnv(empty!.url))));
    const ready = await Promise.all(started.map(async (s) => (await fetch(`${s.url}/readyz`)).status));
    expect(ready).toEqual([200, 200, 200]);
    const client = new pg.Client({ connectionString: empty!.url });
    await client.connect();
    const { rows } = await client.query<{ name: string; n: number }>(
      'SELECT migration_name AS name, count(*)::int AS n FROM _prisma_migrations GROUP BY migration_name HAVING count(*) > 1',
    );
    await client.end();
    expect(rows).toEqual([]);
  }, 180_000);

  it('a replica started while another process migrates for 20 s (longer than the schema engine waits) waits for it, then comes up', async () => {
    // Hold what a migrating gateway holds (its lock, then the schema engine's) for 20 s.
    const migrator = new pg.Client({ connectionString: empty!.url });
    await migrator.connect();
    await migrator.query('SELECT pg_advisory_lock($1), pg_advisory_lock($2)', [MIGRATION_LOCK_KEY, PRISMA_MIGRATE_LOCK]);
    const t0 = performance.now();
    const serving = startServe(serveEnv(empty!.url));
    const cli = runCli(['migrate'], { DATABASE_URL: empty!.url });
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        migrator.end().then(() => resolve(), () => resolve());
      }, 20_000),
    );
    const started = await serving;
    await released;
    const upAfter = performance.now() - t0;
    expect(upAfter).toBeGreaterThan(19_500); // it waited for the lock…
    expect((await fetch(`${started.url}/readyz`)).status).toBe(200); // …and came up migrated
    const migrate = await cli;
    expect(migrate).toMatchObject({ code: 0 });
    expect(migrate.stderr).toContain('another process is migrating the database: waiting for it');
    expect(migrate.stdout).toMatch(/database is up to date \(postgresql\)/);
  }, 180_000);
});
