/**
 * Several outbox workers over one outbox (test/support/delivery-worker-bench.ts; on PostgreSQL the
 * second has its own connection pool, like another replica): no attempt delivered twice, each due
 * delivery claimed once however many claims run at once, and a delivery whose worker died
 * mid-attempt retried by another, the dead one's late record ignored.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { eventually, useDeliveryWorkerBench } from './support/delivery-worker-bench.js';
import type { TestDatabase } from './support/test-database.js';
import type { Receiver } from './support/webhook-receiver.js';

const bench = useDeliveryWorkerBench();
const { workers, worker, merchantWithEndpoint, enqueue, deliveryOf } = bench;
let db: TestDatabase;
let store: WebhookStore;
let receiver: Receiver;
beforeAll(() => void ({ db, store, receiver } = bench));

describe('DeliveryWorker', () => {
  describe('with several workers', () => {
    it('never delivers one attempt twice: two workers over the same outbox', async () => {
      const endpoint = await merchantWithEndpoint();
      const events = [];
      for (let i = 0; i < 40; i++) events.push(await enqueue(endpoint.merchantId, { n: i }));
      // On PostgreSQL the second worker has its own connection pool, like another replica.
      const second: Database = db.url ? await openDatabase({ url: db.url, poolSize: 5 }) : db;
      try {
        worker({ batchSize: 4 }).start();
        worker({ batchSize: 4, store: new WebhookStore(second) }).start();
        await receiver.waitFor(40);
        await eventually(async () => (await db.prisma.webhookDelivery.count({ where: { endpointId: endpoint.id, state: 'succeeded' } })) === 40);
        await Promise.all(workers.splice(0).map((w) => w.stop())); // stopped, attempts in flight finished: no request can come later
        expect(receiver.requests).toHaveLength(40);
        expect(new Set(receiver.requests.map((r) => r.json.id))).toEqual(new Set(events.map((e) => e.id)));
        expect(await db.prisma.webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } })).toBe(40);
      } finally {
        await Promise.all(workers.splice(0).map((w) => w.stop()));
        if (second !== db) await second.close();
      }
    });

    it('claims each due delivery once, however many claims run at the same time', async () => {
      const endpoint = await merchantWithEndpoint();
      for (let i = 0; i < 30; i++) await enqueue(endpoint.merchantId);
      const second: Database = db.url ? await openDatabase({ url: db.url, poolSize: 5 }) : db;
      const stores = [store, new WebhookStore(second)];
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => stores[i % 2]!.claimDue(new Date(), 60_000, 5))).finally(
        () => second !== db && second.close(),
      );
      const ids = claims.flat().map((c) => c.id);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      expect(claims.flat().every((c) => c.attempt === 1)).toBe(true);
    });

    it('lets another worker retry a delivery whose worker died mid-attempt, and ignores the late record of the dead one', async () => {
      const endpoint = await merchantWithEndpoint();
      const event = await enqueue(endpoint.merchantId);
      const claimedAt = new Date();
      const [dead] = await store.claimDue(claimedAt, 50, 10);
      expect(dead!.attempt).toBe(1);
      // Leased: asked at the same instant (not the wall clock, which a busy machine may move past the 50 ms lease).
      expect(await store.claimDue(claimedAt, 50, 10)).toHaveLength(0);
      await worker({ now: () => new Date(claimedAt.getTime() + 80) }).runOnce(); // past the 50 ms lease
      expect((await deliveryOf(event.id)).state).toBe('succeeded');
      const late = await store.recordAttempt(dead!, { responseStatus: 500, error: null, durationMs: 1, responseExcerpt: null }, { state: 'pending', nextAttemptAt: new Date() }, new Date());
      expect(late).toBe(false);
      const delivery = await deliveryOf(event.id);
      expect(delivery.state).toBe('succeeded');
      expect(delivery.attempts.map((a) => [a.number, a.responseStatus])).toEqual([[1, 500], [2, 200]]);
    });
  });
});
