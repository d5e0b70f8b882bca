/**
 * UCP signing keys persisted in the database (src/ucp/signing-keys.ts, ucp/webhooks/): replicas
 * agree on the keys, a rotation publishes the new key at once and signs with it from its
 * activation, the previous key stays published for the overlap, and UCP_SIGNING_KEY wins.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keysAt, SigningKeyRing } from '../src/ucp/signing-keys.js';
import { SigningKeyStore } from '../src/ucp/webhooks/signing-key-store.js';
import { listSigningKeys, rotateSigningKey } from '../src/ucp/webhooks/signing-key-rotation.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const HOUR = 3_600_000;
let db: TestDatabase;
let store: SigningKeyStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = new SigningKeyStore(db);
});
beforeEach(async () => {
  await db.prisma.ucpSigningKey.deleteMany();
});
afterAll(() => db?.close());

const ring = (env: 'development' | 'sandbox' | 'production' = 'development', now = () => new Date(), signingKey?: string) =>
  new SigningKeyRing({ signingKey, env, store, now });

describe('SigningKeyRing', () => {
  it('two replicas of an empty database agree on one key: the first one stored', async () => {
    const [a, b] = [ring(), ring()];
    expect(a.signer!.kid).not.toBe(b.signer!.kid); // before load: a key per process
    await a.load();
    await b.load();
    expect(a.source).toBe('database');
    expect(b.signer!.kid).toBe(a.signer!.kid);
    expect(b.published).toEqual(a.published);
    expect(await db.prisma.ucpSigningKey.count()).toBe(1);
  });

  it('publishes nothing in production until an operator rotates, then the new key', async () => {
    const production = ring('production');
    await production.load();
    expect(production.published).toEqual([]);
    expect(production.signer).toBeUndefined();
    await rotateSigningKey(store, { activateInMs: 0 });
    await production.load();
    expect(production.published).toHaveLength(1);
    expect(production.signer!.kid).toBe(production.published[0]!.kid);
  });

  it('updates its published array in place, so a profile built over it follows the loads', async () => {
    const keys = ring();
    const published = keys.published;
    await keys.load();
    await rotateSigningKey(store, { activateInMs: 0 });
    await keys.load();
    expect(keys.published).toBe(published);
    expect(published).toHaveLength(2);
  });

  it('UCP_SIGNING_KEY wins over the stored keys', async () => {
    await rotateSigningKey(store, { activateInMs: 0 });
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const keys = ring('production', () => new Date(), pem);
    await keys.load();
    expect(keys.source).toBe('setting');
    expect(keys.published).toHaveLength(1);
    expect(keys.published[0]!.kid).not.toBe((await store.list())[0]!.kid);
  });
});

describe('rotation', () => {
  it('publishes the new key at once, signs with it from its activation, keeps the old one for the overlap', async () => {
    const t0 = new Date('2026-11-27T00:00:00Z');
    const first = await rotateSigningKey(store, { activateInMs: 0, now: t0 });
    const second = await rotateSigningKey(store, { activateInMs: HOUR, overlapMs: 7 * 24 * HOUR, now: new Date(t0.getTime() + 24 * HOUR) });
    const at = (ms: number) => keysAt(rows, new Date(t0.getTime() + ms));
    const rows = await store.list();

    const justRotated = at(24 * HOUR + 1);
    expect(justRotated.published.map((k) => k.kid).sort()).toEqual([first.kid, second.kid].sort());
    expect(justRotated.signer!.kid).toBe(first.kid); // the new key is scheduled: platforms see it first

    const activated = at(25 * HOUR);
    expect(activated.signer!.kid).toBe(second.kid);
    expect(activated.published).toHaveLength(2);

    const afterOverlap = at(25 * HOUR + 7 * 24 * HOUR);
    expect(afterOverlap.published.map((k) => k.kid)).toEqual([second.kid]);
    expect(afterOverlap.signer!.kid).toBe(second.kid);
  });

  it('lists each key with its state, and never the private key', async () => {
    const now = new Date();
    const first = await rotateSigningKey(store, { activateInMs: 0, now: new Date(now.getTime() - 2 * HOUR) });
    const second = await rotateSigningKey(store, { activateInMs: HOUR, now });
    const listed = await listSigningKeys(store, new Date(now.getTime() + 1));
    expect(listed.map((k) => [k.kid, k.state])).toEqual([[second.kid, 'scheduled'], [first.kid, 'signing']]);
    expect(JSON.stringify(listed)).not.toMatch(/"d"|privateJwk/);
  });

  it('retire takes a key out at once (a compromised key)', async () => {
    const { kid } = await rotateSigningKey(store, { activateInMs: 0 });
    expect(await store.retire(kid, new Date())).toBe(true);
    expect(await store.retire('nope', new Date())).toBe(false);
    const keys = ring('production');
    await keys.load();
    expect(keys.published).toEqual([]);
    expect(keys.signer).toBeUndefined();
  });
});
