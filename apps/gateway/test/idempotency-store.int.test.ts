import { Prisma } from '../src/generated/prisma/client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advisoryLockLiveness, soleProcessLiveness } from '../src/db/holder-liveness.js';
import { ABANDONED_AFTER_MS, IdempotencyStore, KEY_LIFETIME_MS, operationParams } from '../src/idempotency/idempotency-store.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let store: IdempotencyStore;
let n = 0;
const scope = () => ({ merchantId: 'm', apiKeyId: 'key_1', operation: 'createCheckoutSession', params: '{}', key: `k-${++n}` });

beforeAll(async () => {
  db = await createTestDatabase();
  store = new IdempotencyStore(db);
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

  it('scopes keys by merchant, API key, operation and path parameters', async () => {
    const s = scope();
    await store.begin(s, 'h');
    for (const other of [{ ...s, merchantId: 'm2' }, { ...s, apiKeyId: 'key_2' }, { ...s, operation: 'emitWebhook' }, { ...s, params: '{"session_id":"cs_2"}' }]) {
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

  it('takes over at once a key whose holder process is gone, and only then', async () => {
    const s = scope();
    // Another gateway process: on PostgreSQL it holds its advisory lock until it closes; on the
    // embedded database any process but this one is gone (the data directory is one process's).
    const other = db.url ? advisoryLockLiveness(db.url, db.sql) : soleProcessLiveness();
    try {
      expect((await new IdempotencyStore({ ...db, holders: other }).begin(s, 'h')).kind).toBe('started');
      if (db.url) expect(await store.begin(s, 'h')).toEqual({ kind: 'in_flight' });
    } finally {
      await other.close();
    }
    expect((await store.begin(s, 'h')).kind).toBe('started');
    expect(await store.begin(s, 'h')).toEqual({ kind: 'in_flight' }); // now held by a live process: this one
  });

  it('fences off the request that lost its key: its transaction cannot store an answer, so its change rolls back', async () => {
    const s = scope();
    const lost = (await store.begin(s, 'h', new Date(Date.now() - ABANDONED_AFTER_MS - 1000))) as { recordId: string };
    const taken = (await store.begin(s, 'h')) as { kind: string; recordId: string };
    expect(taken.kind).toBe('started');
    expect(taken.recordId).not.toBe(lost.recordId);
    const late = db.transaction(async (tx) => {
      await tx.execute(Prisma.sql`INSERT INTO merchants (id, name) VALUES (${`fenced-${s.key}`}, 'x')`);
      await store.complete(lost.recordId, 201, { twice: true }, tx);
    });
    await expect(late).rejects.toMatchObject({ code: 'idempotency_in_flight' });
    expect(await db.prisma.merchant.count({ where: { id: `fenced-${s.key}` } })).toBe(0);
    await store.complete(taken.recordId, 201, { once: true });
    expect(await store.begin(s, 'h')).toEqual({ kind: 'replay', status: 201, body: { once: true } });
  });

  it('writes path parameters canonically', () => {
    expect(operationParams({ b: '2', a: 'x y' })).toBe('{"a":"x y","b":"2"}');
    expect(operationParams({})).toBe('{}');
  });

  it('purges expired records', async () => {
    const s = scope();
    await store.begin(s, 'h', new Date(Date.now() - KEY_LIFETIME_MS - 1000));
    expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await db.prisma.idempotencyRecord.count({ where: { key: s.key } })).toBe(0);
  });
});
