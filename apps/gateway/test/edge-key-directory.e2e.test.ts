/**
 * Every key is held in memory (KeyDirectory) and loaded again the moment any change to keys
 * commits: no request reads its key from the database, and a revocation still takes effect on
 * the next request, in this process and in every other.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../src/auth/api-key.js';
import { KeyService } from '../src/auth/key-service.js';
import { KeyStore } from '../src/auth/key-store.js';
import { openDatabase } from '../src/db/database.js';
import { product } from './support/fixtures.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import type { TestDatabase } from './support/test-database.js';

/** A NOTIFY is heard within milliseconds idle (the cluster test prints the figure); CI runs on a busy 2-core machine. */
const NOTIFY_DEADLINE_MS = 5_000;

let gateway: TestGateway;
const onPostgres = () => gateway.db.url !== undefined;
const getProduct = (on: TestGateway, key: string) => call(`${on.url}/acp/products/p-1`, { headers: { 'X-ACP-API-Key': key } });

/** Runs SQL the way an operator at a psql prompt would: another connection (on PGlite, the only one there is). */
async function operatorSql(sql: string): Promise<void> {
  if (!gateway.db.url) {
    await gateway.db.prisma.$executeRawUnsafe(sql);
    return;
  }
  const client = new pg.Client({ connectionString: gateway.db.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const revokeBySql = (key: string) => operatorSql(`UPDATE api_keys SET revoked_at = now() WHERE last4 = '${key.slice(-4)}' AND revoked_at IS NULL`);

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [product({ id: 'p-1' })]);
});
afterAll(() => gateway?.close());

describe('the key directory', () => {
  it('reads keys from the database one by one until it listens, then never per request', async () => {
    const store = new KeyStore(gateway.db);
    const keys = new KeyService(store);
    const reads = vi.spyOn(store, 'findByHash');
    const loads = vi.spyOn(store, 'all');
    const key = await gateway.createKey({ merchantIds: ['shop'] });
    await keys.authenticate(key, 'development');
    await keys.authenticate(key, 'development');
    expect(reads).toHaveBeenCalledTimes(2); // not listening yet: nothing is held
    await keys.listen(gateway.db);
    try {
      expect(keys.answersFromMemory).toBe(true);
      await keys.authenticate(key, 'development');
      await expect(keys.authenticate(generateApiKey('development'), 'development')).rejects.toThrow(/no such key/);
      await keys.revoke(key);
      await expect(keys.authenticate(key, 'development')).rejects.toThrow(/revoked/);
      expect(reads).toHaveBeenCalledTimes(2);
      expect(loads.mock.calls.length).toBeGreaterThanOrEqual(2); // at start, and after the revocation
    } finally {
      await keys.close();
    }
  });

  it('refuses a key revoked by SQL from another connection as soon as its NOTIFY is heard', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop'] });
    expect((await getProduct(gateway, key)).status).toBe(200);
    expect((await getProduct(gateway, key)).status).toBe(200); // now served from memory
    await revokeBySql(key);
    // as soon as the NOTIFY is heard (milliseconds; without it the key would stay valid until a restart)
    await expect.poll(async () => (await getProduct(gateway, key)).status, { timeout: NOTIFY_DEADLINE_MS, interval: 50 }).toBe(401);
    const reply = await getProduct(gateway, key);
    expect(reply.body.error.message).toMatch(/revoked/);
  });

  it('refuses a key on a second replica as soon as it hears the first replica revoke it', async () => {
    let ownDb: TestDatabase | undefined;
    if (gateway.db.url) {
      const db = await openDatabase({ url: gateway.db.url, poolSize: 2 });
      ownDb = Object.assign(db, { url: gateway.db.url }); // its own connections, as another process would have
    }
    const replica = await startTestGateway({ db: ownDb ?? gateway.db });
    try {
      const key = await gateway.createKey({ merchantIds: ['shop'] });
      expect((await getProduct(replica, key)).status).toBe(200);
      expect((await getProduct(replica, key)).status).toBe(200);
      expect(await gateway.services.keys.revoke(key)).toBe(true);
      await expect.poll(async () => (await getProduct(replica, key)).status, { timeout: NOTIFY_DEADLINE_MS, interval: 50 }).toBe(401);
    } finally {
      await replica.close();
      await ownDb?.close();
    }
  });

  it('holds nothing while its connection is down, and everything again once it is back', async (context) => {
    if (!onPostgres()) context.skip(); // PGlite has no connection to lose
    const key = await gateway.createKey({ merchantIds: ['shop'] });
    expect((await getProduct(gateway, key)).status).toBe(200);
    // The process's one listening connection (every channel shares it).
    await operatorSql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
    );
    await expect.poll(() => gateway.services.keys.answersFromMemory).toBe(false);
    // Were it still trusting what it held, this revocation would go unheard.
    await revokeBySql(key);
    expect((await getProduct(gateway, key)).status).toBe(401);
    await expect.poll(() => gateway.services.keys.answersFromMemory, { timeout: 5_000 }).toBe(true);
    const fresh = await gateway.createKey({ merchantIds: ['shop'] });
    expect((await getProduct(gateway, fresh)).status).toBe(200);
    await revokeBySql(fresh);
    // Heard again: the revocation's NOTIFY evicts the key. Within 1 s, not on the very next request:
    // the gateway shares this test's event loop, so under a loaded suite the request can be read
    // before the notification that is already on its way (without eviction it stays 200 for 60 s).
    await expect.poll(async () => (await getProduct(gateway, fresh)).status, { timeout: NOTIFY_DEADLINE_MS, interval: 50 }).toBe(401);
  });
});
