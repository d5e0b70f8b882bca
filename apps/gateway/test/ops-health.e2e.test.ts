/**
 * /healthz and /readyz on a real gateway (test/support/ops-gateway.ts): /healthz answers without an
 * API key; /readyz is ready when the database answers, its migrations are applied and search is
 * ready, and unready — saying only which check failed — when migrations are pending, the database
 * goes away, the search index is not ready or a probe hangs. The other ops paths: ops-metrics,
 * ops-keyless and ops-request-log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { call } from './support/http.js';
import { openOpsShop, startOpsGateway, type OpsGateway, type OpsShop } from './support/ops-gateway.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let gateway: OpsGateway;
let shop: OpsShop | undefined;

beforeAll(async () => {
  shop = await openOpsShop();
  ({ db, gateway } = shop);
});
afterAll(() => shop?.close());

describe('GET /healthz and /readyz', () => {
  it('/healthz answers 200 without an API key', async () => {
    const reply = await call(`${gateway.url}/healthz`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('request-id')).toMatch(/^req_/);
  });

  it('/readyz is ready when the database answers, its migrations are applied and search is ready', async () => {
    const reply = await call(`${gateway.url}/readyz`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', search: 'ok', catalog: 'ok' } });
  });

  it('/readyz is unready while migrations are pending', async () => {
    const fresh = await openDatabase({ dataDir: null }); // never migrated
    const unmigrated = await startOpsGateway(fresh);
    try {
      const reply = await call(`${unmigrated.url}/readyz`);
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ status: 'unready', checks: { database: 'ok', migrations: 'pending', search: 'ok', catalog: 'ok' } });
    } finally {
      await unmigrated.close();
      await fresh.close();
    }
  });

  it('/readyz is unready when the database goes away, and says only that', async () => {
    const doomed = await createTestDatabase();
    const app = await startOpsGateway(doomed);
    try {
      expect((await call(`${app.url}/readyz`)).status).toBe(200);
      await doomed.close();
      // The status is refreshed at most once a second: unready by the next refresh.
      await expect.poll(async () => (await call(`${app.url}/readyz`)).status, { timeout: 10_000, interval: 200 }).toBe(503);
      const reply = await call(`${app.url}/readyz`);
      expect(reply.body).toEqual({ status: 'unready', checks: { database: 'unreachable', migrations: 'unreachable', search: 'ok', catalog: 'ok' } });
    } finally {
      await app.close();
    }
  });

  it('/readyz reports a search index that is not ready, and a probe that hangs, within the time bound', async () => {
    const notReady = await startOpsGateway(db, { searchReady: () => false });
    const hanging = await startOpsGateway(db, { searchReady: () => new Promise<boolean>(() => {}), probeTimeoutMs: 300 });
    try {
      expect((await call(`${notReady.url}/readyz`)).body.checks.search).toBe('not_ready');
      const reply = await call(`${hanging.url}/readyz`); // answers at all: the probe that hangs is cut at 300 ms
      expect(reply.status).toBe(503);
      expect(reply.body.checks).toEqual({ database: 'ok', migrations: 'ok', search: 'timeout', catalog: 'ok' });
    } finally {
      await Promise.all([notReady.close(), hanging.close()]);
    }
  });
});
