/**
 * The delivery worker that `serve` starts itself, and WEBHOOK_WORKER=off, which leaves the outbox
 * to other replicas: an order completed on a replica without the worker waits in the outbox, and
 * the next replica with one delivers it. Real CLI processes; needs the built CLI.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkoutCalls, SF_ADDRESS, stocked } from './support/checkout.js';
import { endChildren, exitOf, runCli, startServe } from './support/cli.js';
import { catalogFile } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

let db: TestDatabase | undefined;
let env: Record<string, string>;
let receiver: Receiver;
let key: string;

beforeAll(async () => {
  receiver = await startReceiver();
  const testDb = await createTestDatabase();
  if (testDb.url) {
    db = testDb;
    env = { DATABASE_URL: testDb.url };
  } else {
    await testDb.close(); // the CLI gets its own embedded database on disk
    env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-worker-')) };
  }
  env = { ...env, GATEWAY_ENV: 'sandbox', HOST: '127.0.0.1', PORT: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
  expect((await runCli(['merchants', 'create', 'worker-shop'], env)).code).toBe(0);
  expect((await runCli(['catalog', 'import', catalogFile([stocked('chair')]), '--merchant', 'worker-shop'], env)).code).toBe(0);
  expect((await runCli(['webhooks', 'add-endpoint', '--merchant', 'worker-shop', '--url', `${receiver.url}/hooks`], env)).code).toBe(0);
  const created = await runCli(['keys', 'create', '--merchant', 'worker-shop', '--env', 'sandbox'], env);
  key = created.stdout.trim().split('\n').at(-1)!;
}, 300_000);
afterAll(async () => {
  await endChildren(() => true); // before the database goes
  await receiver?.close();
  await db?.close();
});

/** The outbox gauges of GET /metrics: deliveries pending and due, and how long the oldest has waited. */
async function outbox(url: string): Promise<{ due: number; lagSeconds: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  return { due: gauge('gateway_outbox_due_deliveries'), lagSeconds: gauge('gateway_outbox_lag_seconds') };
}

async function stop(child: ChildProcess): Promise<number | null> {
  child.kill('SIGTERM');
  return exitOf(child);
}

it('leaves the outbox alone with WEBHOOK_WORKER=off; a replica with its worker on delivers what waits', async () => {
  const without = await startServe({ ...env, WEBHOOK_WORKER: 'off' });
  const api = checkoutCalls(without.url, key);
  const created = await api.create({ items: [{ product_id: 'chair', quantity: 1 }], shipping_address: SF_ADDRESS });
  expect((await api.complete(created.body.checkout_session.id)).status).toBe(200);
  // That no worker takes it can only be shown over time: a worker acts on its own timer (a poll every second),
  // and a worker that is not there gives no event to wait for. So the wait is the gateway's own measure, read
  // from its outbox gauges: the order's delivery due and unclaimed (a claim moves it out of "due", failing this)
  // for longer than two polls of a worker, had there been one.
  await expect
    .poll(() => outbox(without.url), { timeout: 30_000, interval: 250 })
    .toSatisfy(({ due, lagSeconds }) => due >= 1 && lagSeconds >= 2.5);
  expect(receiver.requests).toHaveLength(0);
  expect(await stop(without.child)).toBe(0);

  const withWorker = await startServe(env);
  const [delivered] = await receiver.waitFor(1, 10_000);
  expect(delivered!.json).toMatchObject({ type: 'order.created', data: { object: { id: created.body.checkout_session.id, status: 'completed' } } });
  expect(await stop(withWorker.child)).toBe(0);
}, 180_000);
