/**
 * The bench of the outbox worker's tests (webhooks-worker-*.int.test.ts): a real database (PGlite,
 * or PostgreSQL with TEST_DATABASE_URL), a real receiver on loopback, and workers on a schedule of
 * milliseconds instead of hours. `useDeliveryWorkerBench()` registers the file's hooks (every worker
 * a test started is stopped after it, and what it left pending is abandoned) and returns the helpers.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { WebhookEventType } from '../../src/contract/types.js';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../../src/webhooks/delivery-worker.js';
import { OutboxStore } from '../../src/webhooks/outbox-store.js';
import { WebhookStore, type EndpointRow } from '../../src/webhooks/webhook-store.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

export const FAST: Partial<DeliveryWorkerOptions> = { schedule: [0, 50, 50, 50], pollIntervalMs: 10, timeoutMs: 1000, random: () => 0.5 };

/** The worker's clock, moved by the test: a schedule is then a matter of dates, not of waiting. */
export function testClock(start = new Date()) {
  let at = start.getTime();
  return { now: () => new Date(at), advance: (ms: number) => void (at += ms) };
}

export async function eventually<T>(probe: () => Promise<T | undefined | false>): Promise<T> {
  let value: T | undefined | false;
  await expect.poll(async () => (value = await probe()), { interval: 20, message: 'condition not met in time' }).toBeTruthy();
  return value as T;
}

export function useDeliveryWorkerBench() {
  let db: TestDatabase;
  let store: WebhookStore;
  let receiver: Receiver;
  const workers: DeliveryWorker[] = [];
  let merchantCount = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new WebhookStore(db);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    // Each test starts with an empty outbox: what a test left pending is not the next one's business.
    await db.prisma.webhookDelivery.updateMany({ where: { state: 'pending' }, data: { state: 'abandoned' } });
    receiver.reply = 200;
    receiver.replies = [];
    receiver.requests.length = 0;
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.close();
  });

  return {
    /** The database, the webhook store over it and the receiver (set once beforeAll ran). */
    get db() {
      return db;
    },
    get store() {
      return store;
    },
    get receiver() {
      return receiver;
    },
    /** The workers the running test started (stopped after it). */
    workers,
    /** A worker on the FAST schedule (or the options given), stopped after the test. */
    worker(options: Partial<DeliveryWorkerOptions> = {}): DeliveryWorker {
      const started = new DeliveryWorker({ store, allowPrivateTargets: true, ...FAST, ...options });
      workers.push(started);
      return started;
    },
    /** A new merchant with one endpoint at the receiver. */
    async merchantWithEndpoint(path = '/hooks', url = `${receiver.url}${path}`): Promise<EndpointRow> {
      const id = `m${++merchantCount}`;
      await db.prisma.merchant.create({ data: { id, name: id } });
      return store.createEndpoint(id, url, `whsec_endpoint_${id}`);
    },
    async enqueue(merchantId: string, object: Record<string, unknown> = { order: 1 }, type: WebhookEventType = 'order.created') {
      return db.transaction((tx) => new OutboxStore().enqueue(tx, { merchantId, type, object }));
    },
    deliveryOf: (eventId: string) => db.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId }, include: { attempts: { orderBy: { number: 'asc' } } } }),
  };
}
