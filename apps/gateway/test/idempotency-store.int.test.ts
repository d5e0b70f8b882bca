import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS, IdempotencyStore, KEY_LIFETIME_MS } from '../src/idempotency/idempotency-store.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let store: IdempotencyStore;
let n = 0;
const scope = () => ({ merchantId: 'm', apiKeyId: 'key_1', method: 'POST', path: '/checkout_sessions', key: `k-${++n}` });

beforeAll(async () => {
  db = await createTestDatabase();
  store = new IdempotencyStore(db.prisma);
});
afterAll(() => db?.close());

describe('IdempotencyStore', () => {
  it('claims a new key, then replays the stored answer for the same body', async () => {
    const s = scope();
    const first = await store.begin(s, 'hash-a');
    expect(first.kind).toBe('started');
    await store.complete((first as { recordId: string }).recordId, 201, { ok: true });
    expect(await store.begin(s, 'hash-a')).toEqual({ kind: 'replay', status: 201, body: { ok: true } });
  });

  it('says conflict for another body and in_flight while the first still runs', async () => {
    const s = scope();
    await store.begin(s, 'hash-a');
    expect(await store.begin(s, 'hash-a')).toEqual({ kind: 'in_flight' });
    expect(await store.begin(s, 'hash-b')).toEqual({ kind: 'conflict' });
  });

  it('scopes keys by merchant, API key, method and path', async () => {
    const s = scope();
    await store.begin(s, 'h');
    for (const other of [{ ...s, merchantId: 'm2' }, { ...s, apiKeyId: 'key_2' }, { ...s, method: 'PATCH' }, { ...s, path: '/other' }]) {
      expect((await store.begin(other, 'h')).kind).toBe('started');
    }
  });

  it('lets exactly one of many concurrent requests claim a key', async () => {
    const s = scope();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.begin(s, 'h')));
    expect(results.filter((r) => r.kind === 'started')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'in_flight')).toHaveLength(19);
  });

  it('frees a released key for a new attempt', async () => {
    const s = scope();
    const first = await store.begin(s, 'h');
    await store.release((first as { recordId: string }).recordId);
    expect((await store.begin(s, 'h')).kind).toBe('started');
  });

  it('never releases a completed answer', async () => {
    const s = scope();
    const first = (await store.begin(s, 'h')) as { recordId: string };
    await store.complete(first.recordId, 200, { x: 1 });
    await store.release(first.recordId);
    expect((await store.begin(s, 'h')).kind).toBe('replay');
  });

  it('forgets a key after 24 hours', async () => {
    const s = scope();
    const past = new Date(Date.now() - KEY_LIFETIME_MS - 1000);
    const first = (await store.begin(s, 'h', past)) as { recordId: string };
    await store.complete(first.recordId, 201, { old: true });
    expect((await store.begin(s, 'other-body')).kind).toBe('started');
  });

  it('lets a new request take over a key whose request died in flight', async () => {
    const s = scope();
    await store.begin(s, 'h', new Date(Date.now() - ABANDONED_AFTER_MS - 1000));
    expect((await store.begin(s, 'h')).kind).toBe('started');
  });

  it('purges expired records', async () => {
    const s = scope();
    await store.begin(s, 'h', new Date(Date.now() - KEY_LIFETIME_MS - 1000));
    expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await db.prisma.idempotencyRecord.count({ where: { key: s.key } })).toBe(0);
  });
});
