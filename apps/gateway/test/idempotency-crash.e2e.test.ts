/**
 * A gateway process killed (`kill -9`) in the middle of an idempotent request: a retry with
 * the same Idempotency-Key is taken over at once by another process — not answered 409 until
 * the 60 s backstop — and the request happens exactly once. Real `serve` processes of the
 * built CLI; on PostgreSQL (TEST_DATABASE_URL) two of them share the database, on the
 * embedded database the second starts on the dead one's data directory.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS } from '../src/idempotency/idempotency-store.js';
import { exitOf, runCli, startServe } from './support/cli.js';
import { catalogFile, product } from './support/fixtures.js';
import { call } from './support/http.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase | undefined;
let env: Record<string, string>;
let key: string;
let receiver: Server;
let receiverUrl: string;
const hanging: ServerResponse[] = [];
let hang = true;
let received = 0;

beforeAll(async () => {
  const testDb = await createTestDatabase();
  if (testDb.url) {
    db = testDb;
    env = { DATABASE_URL: testDb.url };
  } else {
    await testDb.close();
    env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-crash-')) };
  }
  env = { ...env, GATEWAY_ENV: 'development', HOST: '127.0.0.1', PORT: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
  expect((await runCli(['merchants', 'create', 'crash-shop'], env)).code).toBe(0);
  const created = await runCli(['keys', 'create', '--merchant', 'crash-shop'], env);
  expect(created.code).toBe(0);
  key = created.stdout.trim().split('\n').at(-1)!;
  expect((await runCli(['catalog', 'import', catalogFile([product({ id: 'mug' })]), '--merchant', 'crash-shop'], env)).code).toBe(0);
  // A webhook receiver that holds its answer while `hang` is set: the emit stays in flight.
  receiver = createServer((req, res) => {
    received++;
    req.resume();
    if (hang) hanging.push(res);
    else res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});
afterAll(async () => {
  for (const res of hanging.splice(0)) res.destroy();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await db?.close();
});

async function serve() {
  return startServe(env); // ended after the test that started it (support/end-children.ts)
}

async function kill9(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await exitOf(child);
}

const post = (url: string, path: string, idempotencyKey: string, json: unknown) =>
  call(`${url}${path}`, { method: 'POST', headers: { 'X-ACP-API-Key': key, 'Idempotency-Key': idempotencyKey }, json });

describe('a process killed mid-request', () => {
  it('leaves a key that the next retry takes over at once, not after 60 s', async () => {
    const first = await serve();
    const body = { event_type: 'order.created', target_url: receiverUrl, payload: { n: 1 } };
    const dying = post(first.url, '/webhooks/emit', 'crash-emit-1', body).catch(() => undefined);
    await expect.poll(() => received, { message: 'the emit to reach its target' }).toBe(1);
    await kill9(first.child);
    await dying;
    for (const res of hanging.splice(0)) res.destroy();
    hang = false;

    const second = await serve(); // on the embedded database: the same data directory, free again
    // The very first retry is served: a key left to the 60 s backstop would answer 409 (in flight).
    const retry = await post(second.url, '/webhooks/emit', 'crash-emit-1', body);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.delivered).toBe(204);
    const again = await post(second.url, '/webhooks/emit', 'crash-emit-1', body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  }, 240_000); // two serve processes start

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('creates exactly one session when the retry goes to another live process (PostgreSQL)', async () => {
    const [a, b] = [await serve(), await serve()];
    const admin = new pg.Client({ connectionString: db!.url });
    await admin.connect();
    try {
      // Hold every insert into checkout_sessions, so that a's create waits inside its transaction, key claimed.
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE checkout_sessions IN EXCLUSIVE MODE');
      const dying = post(a.url, '/checkout_sessions', 'crash-create-1', { items: [{ product_id: 'mug' }] }).catch(() => undefined);
      await expect
        .poll(async () => (await admin.query("SELECT 1 FROM idempotency_records WHERE key = 'crash-create-1' AND state = 'in_flight'")).rowCount, { message: 'the key to be claimed' })
        .toBe(1);
      // a's insert, waiting on the lock: the backend whose end the count below waits for.
      let waiting: number[] = [];
      await expect
        // In a transaction, pg_stat_activity is a snapshot taken once: cleared, each poll sees it anew.
        .poll(async () => (waiting = (await admin.query('SELECT pg_stat_clear_snapshot()').then(() => admin.query("SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%checkout_sessions%'"))).rows.map((r) => r.pid as number)).length, {
          message: "a's insert to wait on the lock",
        })
        .toBeGreaterThan(0);
      const live = await post(b.url, '/checkout_sessions', 'crash-create-1', { items: [{ product_id: 'mug' }] });
      expect(live.status).toBe(409); // its holder is alive: truly in flight
      await kill9(a.child);
      await dying;
      await admin.query('ROLLBACK');

      // The dead process's backend lives until PostgreSQL notices its client is gone (on its next read,
      // once the lock it waited on is free) — milliseconds idle, longer on a busy machine: until then
      // the key's holder is alive and the retry is 409 (changing nothing), as a client retrying would see.
      // The poll's limit (half the backstop) is what tells a takeover from the 60 s backstop: a limit, not a figure.
      let retry = await post(b.url, '/checkout_sessions', 'crash-create-1', { items: [{ product_id: 'mug' }] });
      await expect
        .poll(async () => (retry.status === 409 ? (retry = await post(b.url, '/checkout_sessions', 'crash-create-1', { items: [{ product_id: 'mug' }] })) : retry).status, {
          timeout: ABANDONED_AFTER_MS / 2,
          interval: 100,
        })
        .toBe(201);
      const replay = await post(b.url, '/checkout_sessions', 'crash-create-1', { items: [{ product_id: 'mug' }] });
      expect(replay.body.checkout_session.id).toBe(retry.body.checkout_session.id);
      // The dead process's backend, unblocked, must not commit: count once it has ended, whatever it did.
      await expect.poll(async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1)', [waiting])).rowCount, { timeout: 30_000 }).toBe(0);
      const { rows } = await admin.query("SELECT count(*)::int AS n FROM checkout_sessions WHERE merchant_id = 'crash-shop'");
      expect(rows[0].n).toBe(1);
    } finally {
      await admin.query('ROLLBACK').catch(() => {});
      await admin.end();
      await kill9(b.child);
    }
  }, 240_000);
});
