/**
 * An order's actions follow its state: an order refunded in full (by amount, its units never
 * shipped) or canceled cannot be fulfilled — the merchant API, the admin API and the CLI all
 * refuse with the contract's 405 and record nothing — and a refunded order has nothing left to
 * cancel. The real `serve` process over a real database, the built CLI beside it, real HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { runCli, startServe } from './support/cli.js';
import { catalogFile } from './support/fixtures.js';
import { call, type Reply } from './support/http.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase | undefined;
let env: Record<string, string | undefined>;
let url = '';
let key = '';
let operator = '';

beforeAll(async () => {
  const testDb = await createTestDatabase();
  if (testDb.url) db = testDb;
  else await testDb.close(); // the CLI and serve share an embedded database on disk
  env = { GATEWAY_ENV: 'sandbox', HOST: '127.0.0.1', PORT: '0', ...(db ? { DATABASE_URL: db.url } : { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-order-state-')), DATABASE_URL: undefined }) };
  expect((await runCli(['merchants', 'create', 'shop'], env)).code).toBe(0);
  expect((await runCli(['catalog', 'import', catalogFile([stocked('chair', [{ price: 40, quantity: 100 }])]), '--merchant', 'shop'], env)).code).toBe(0);
  key = (await runCli(['keys', 'create', '--merchant', 'shop', '--env', 'sandbox', '--tier', 'enterprise', '--rpm', '6000', '--rpd', '1000000'], env)).stdout.trim().split('\n').at(-1)!;
  operator = (await runCli(['operators', 'create', '--name', 'ops', '--access', 'full', '--merchant', 'shop'], env)).stdout.trim().split('\n').at(-1)!;
  url = (await startServe(env)).url; // ended after the file (test/support/end-children.ts)
}, 240_000);
afterAll(async () => {
  await db?.close();
});

const api = (path: string, json?: unknown): Promise<Reply> =>
  call(`${url}${path}`, { method: json === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${key}` }, ...(json === undefined ? {} : { json }) });
const admin = (path: string, json: unknown = {}): Promise<Reply> =>
  call(`${url}/admin/merchants/shop${path}`, { method: 'POST', headers: { authorization: `Bearer ${operator}` }, json });

/** A completed checkout's order: 2 chairs, nothing shipped yet. */
async function newOrder(): Promise<string> {
  const created = await api('/checkout_sessions', { items: [{ product_id: 'chair', quantity: 2 }], shipping_address: SF_ADDRESS });
  expect(created.status).toBe(201);
  const completed = await api(`/checkout_sessions/${created.body.checkout_session.id}/complete`, {});
  expect(completed.status).toBe(200);
  return completed.body.checkout_session.order.id as string;
}

/** Every way an operator or a merchant's system asks to fulfil the rest: each refused with 405 (the CLI: one line, exit 1). */
async function expectFulfilRefused(orderId: string, status: string): Promise<void> {
  const merchant = await api(`/orders/${orderId}/fulfillments`, {});
  expect(merchant.status).toBe(405);
  expect(merchant.body).toMatchObject({ code: 'method_not_allowed', detail: `Order ${orderId} has nothing left to fulfil (it is ${status})` });
  const byAdmin = await admin(`/orders/${orderId}/fulfillments`);
  expect(byAdmin.status).toBe(405);
  expect(JSON.stringify(byAdmin.body)).toContain('nothing left to fulfil');
  for (const args of [['orders', 'fulfil', '--carrier', 'UPS'], ['orders', 'update', '--status', 'fulfilled']]) {
    const cli = await runCli([...args, '--merchant', 'shop', '--order', orderId], env);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toBe('');
    expect(cli.stderr).toBe(`error: Order ${orderId} has nothing left to fulfil (it is ${status})\n`);
  }
  const order = (await api(`/orders/${orderId}`)).body;
  expect(order).toMatchObject({ status, fulfillments: [] });
}

describe('an order refunded in full by amount', () => {
  it('cannot be fulfilled, nor canceled: nothing is left to ship', async () => {
    const orderId = await newOrder();
    const refunded = await api(`/orders/${orderId}/refunds`, { reason: 'requested_by_customer' });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ status: 'refunded', refunds: [{ lines: [] }] });
    await expectFulfilRefused(orderId, 'refunded');
    const cancel = await api(`/orders/${orderId}/cancel`, {});
    expect(cancel.status).toBe(405);
    expect(cancel.body.detail).toBe(`Order ${orderId} has nothing left to cancel (it is refunded)`);
    expect((await api(`/orders/${orderId}/refunds`, { reason: 'other' })).status).toBe(405);
    expect((await api(`/orders/${orderId}`)).body).toMatchObject({ status: 'refunded', canceled_at: null });
  }, 120_000);
});

describe('a canceled order', () => {
  it('cannot be fulfilled, refunded again nor canceled again', async () => {
    const orderId = await newOrder();
    const canceled = await admin(`/orders/${orderId}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled' });
    await expectFulfilRefused(orderId, 'canceled');
    expect((await api(`/orders/${orderId}/refunds`, { reason: 'other' })).status).toBe(405);
    expect((await api(`/orders/${orderId}/cancel`, {})).status).toBe(405);
  }, 120_000);
});

describe('an order partly refunded by amount', () => {
  it('is still fulfilled in full', async () => {
    const orderId = await newOrder();
    expect((await api(`/orders/${orderId}/refunds`, { reason: 'damaged', amount: 10 })).status).toBe(200);
    const fulfilled = await runCli(['orders', 'fulfil', '--merchant', 'shop', '--order', orderId], env);
    expect(fulfilled.stderr).toBe('');
    expect((await api(`/orders/${orderId}`)).body).toMatchObject({ status: 'fulfilled', fulfillments: [{ lines: [{ line: 1, quantity: 2 }] }] });
  }, 120_000);
});
