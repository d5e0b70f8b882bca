/**
 * The outbox worker on a real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL) delivering to real receivers on loopback, with a
 * schedule of milliseconds instead of hours.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEventType } from '../src/contract/types.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../src/webhooks/delivery-worker.js';
import { OutboxStore } from '../src/webhooks/outbox-store.js';
import { WebhookStore, type EndpointRow } from '../src/webhooks/webhook-store.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { opensslHmacHex, startReceiver, v1Values, type Receiver } from './support/webhook-receiver.js';

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

const FAST: Partial<DeliveryWorkerOptions> = { schedule: [0, 50, 50, 50], pollIntervalMs: 10, timeoutMs: 1000, random: () => 0.5 };

function worker(options: Partial<DeliveryWorkerOptions> = {}): DeliveryWorker {
  const started = new DeliveryWorker({ store, allowPrivateTargets: true, ...FAST, ...options });
  workers.push(started);
  return started;
}

/** A new merchant with one endpoint at the receiver. */
async function merchantWithEndpoint(path = '/hooks', url = `${receiver.url}${path}`): Promise<EndpointRow> {
  const id = `m${++merchantCount}`;
  await db.prisma.merchant.create({ data: { id, name: id } });
  return store.createEndpoint(id, url, `whsec_endpoint_${id}`);
}

async function enqueue(merchantId: string, object: Record<string, unknown> = { order: 1 }, type: WebhookEventType = 'order.created') {
  return db.transaction((tx) => new OutboxStore().enqueue(tx, { merchantId, type, object }));
}

async function eventually<T>(probe: () => Promise<T | undefined | false>): Promise<T> {
  let value: T | undefined | false;
  await expect.poll(async () => (value = await probe()), { interval: 20, message: 'condition not met in time' }).toBeTruthy();
  return value as T;
}

/** The worker's clock, moved by the test: a schedule is then a matter of dates, not of waiting. */
function testClock(start = new Date()) {
  let at = start.getTime();
  return { now: () => new Date(at), advance: (ms: number) => void (at += ms) };
}

const deliveryOf = (eventId: string) => db.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId }, include: { attempts: { orderBy: { number: 'asc' } } } });

describe('DeliveryWorker', () => {
  it('delivers an enqueued event at once, signed with the endpoint secret (checked by openssl), and records the attempt', async () => {
    const endpoint = await merchantWithEndpoint();
    const event = await enqueue(endpoint.merchantId, { id: 'cs_1', status: 'completed' });
    worker().start();
    const [request] = await receiver.waitFor(1);
    expect(request!.path).toBe('/hooks');
    expect(request!.json).toEqual(event);
    expect(request!.raw.toString()).toBe(JSON.stringify(event));
    expect(v1Values(request!.headers['x-webhook-signature'])).toEqual([opensslHmacHex(request!.raw, endpoint.secret)]);
    const delivery = await eventually(async () => {
      const row = await deliveryOf(event.id);
      return row.state === 'succeeded' && row;
    });
    expect(delivery.attempts).toMatchObject([{ number: 1, responseStatus: 200, error: null, responseExcerpt: 'ok' }]); // the receiver's body
  });

  it('retries a receiver that is down with the same event id, and delivers once it is back', async () => {
    const endpoint = await merchantWithEndpoint();
    await receiver.down();
    try {
      const event = await enqueue(endpoint.merchantId);
      worker({ schedule: [0, 150, 150, 150, 150, 150] }).start();
      await eventually(async () => (await deliveryOf(event.id)).attempts.length >= 2);
      await receiver.up();
      const [request] = await receiver.waitFor(1);
      expect(request!.json.id).toBe(event.id);
      const delivery = await eventually(async () => {
        const row = await deliveryOf(event.id);
        return row.state === 'succeeded' && row;
      });
      const failed = delivery.attempts.slice(0, -1);
      expect(failed.length).toBeGreaterThanOrEqual(2);
      for (const attempt of failed) expect(attempt).toMatchObject({ responseStatus: null, error: 'connection refused', responseExcerpt: null });
      expect(delivery.attempts.at(-1)).toMatchObject({ responseStatus: 200, error: null });
      expect(delivery.attempts.map((a) => a.number)).toEqual(delivery.attempts.map((_, i) => i + 1));
    } finally {
      await receiver.up().catch(() => {});
    }
  });

  it('sends identical bytes with the same id on every attempt until a 2xx', async () => {
    const endpoint = await merchantWithEndpoint();
    receiver.replies = [500, 429, 503];
    receiver.reply = 204;
    const event = await enqueue(endpoint.merchantId);
    worker().start();
    const requests = await receiver.waitFor(4);
    expect(new Set(requests.map((r) => r.raw.toString())).size).toBe(1);
    expect(requests.every((r) => r.json.id === event.id)).toBe(true);
    const delivery = await eventually(async () => {
      const row = await deliveryOf(event.id);
      return row.state === 'succeeded' && row;
    });
    expect(delivery.attempts.map((a) => a.responseStatus)).toEqual([500, 429, 503, 204]);
  });

  it('reports each recorded attempt to onAttempt (for metrics)', async () => {
    const endpoint = await merchantWithEndpoint();
    receiver.replies = [500];
    await enqueue(endpoint.merchantId);
    const seen: unknown[] = [];
    const clock = testClock();
    const running = worker({ onAttempt: (attempt) => seen.push(attempt), now: clock.now });
    await running.runOnce();
    clock.advance(50); // the second attempt of the FAST schedule is due
    await running.runOnce();
    expect(seen).toEqual([
      { state: 'pending', status: 500, durationMs: expect.any(Number) },
      { state: 'succeeded', status: 200, durationMs: expect.any(Number) },
    ]);
  });

  it('waits as the schedule says between attempts', async () => {
    const endpoint = await merchantWithEndpoint();
    receiver.replies = [500];
    const event = await enqueue(endpoint.merchantId);
    const clock = testClock();
    const running = worker({ schedule: [0, 400], now: clock.now });
    expect(await running.runOnce()).toBe(1);
    clock.advance(399);
    expect(await running.runOnce()).toBe(0); // not due a millisecond early
    clock.advance(1);
    expect(await running.runOnce()).toBe(1);
    expect((await deliveryOf(event.id)).attempts.map((a) => a.responseStatus)).toEqual([500, 200]);
  });

  it('gives up after the last attempt of the schedule (state failed, every attempt recorded)', async () => {
    const endpoint = await merchantWithEndpoint();
    receiver.reply = 500;
    const event = await enqueue(endpoint.merchantId);
    const clock = testClock();
    const running = worker({ schedule: [0, 20, 20], now: clock.now });
    for (let attempt = 0; attempt < 3; attempt++, clock.advance(20)) expect(await running.runOnce()).toBe(1);
    const delivery = await deliveryOf(event.id);
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts.map((a) => a.responseStatus)).toEqual([500, 500, 500]);
    clock.advance(3_600_000); // long past any retry: nothing is due any more
    expect(await running.runOnce()).toBe(0);
    expect(receiver.requests).toHaveLength(3);
  });

  it('records a timeout as a failed attempt with its reason', async () => {
    const endpoint = await merchantWithEndpoint();
    receiver.replies = [() => new Promise(() => {})];
    const event = await enqueue(endpoint.merchantId);
    worker({ timeoutMs: 200 }).start();
    const delivery = await eventually(async () => {
      const row = await deliveryOf(event.id);
      return row.state === 'succeeded' && row;
    });
    expect(delivery.attempts.map((a) => a.error)).toEqual(['timed out after 200 ms', null]);
  });

  it('disables the endpoint on 410 Gone and abandons its deliveries; new events skip it', async () => {
    const endpoint = await merchantWithEndpoint();
    receiver.reply = 410;
    const event = await enqueue(endpoint.merchantId);
    worker().start();
    const delivery = await eventually(async () => {
      const row = await deliveryOf(event.id);
      return row.state === 'abandoned' && row;
    });
    expect(delivery.attempts).toMatchObject([{ responseStatus: 410 }]);
    expect((await store.findEndpoint(endpoint.id))!.disabledAt).toBeInstanceOf(Date);
    const later = await enqueue(endpoint.merchantId);
    expect(await db.prisma.webhookDelivery.count({ where: { eventId: later.id } })).toBe(0);
    expect(receiver.requests).toHaveLength(1);
  });

  it('does not attempt deliveries of an endpoint disabled after they were queued', async () => {
    const endpoint = await merchantWithEndpoint();
    const event = await enqueue(endpoint.merchantId);
    await db.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { disabledAt: new Date() } });
    await worker().runOnce();
    expect((await deliveryOf(event.id)).state).toBe('abandoned');
    expect(receiver.requests).toHaveLength(0);
  });

  it('fails a delivery the guard refuses at once, records why, and never retries it', async () => {
    const endpoint = await merchantWithEndpoint();
    const event = await enqueue(endpoint.merchantId);
    const clock = testClock();
    const refusing = worker({ allowPrivateTargets: false, now: clock.now });
    expect(await refusing.runOnce()).toBe(1);
    const delivery = await deliveryOf(event.id);
    expect(delivery).toMatchObject({ state: 'failed', attemptCount: 1 });
    expect(delivery.attempts).toMatchObject([
      { number: 1, responseStatus: null, error: 'endpoint URL host 127.0.0.1 is a loopback address; webhooks are only sent to public addresses' },
    ]);
    clock.advance(3_600_000); // past the whole FAST schedule
    expect(await refusing.runOnce()).toBe(0);
    expect((await deliveryOf(event.id)).attempts).toHaveLength(1);
    expect(receiver.requests).toHaveLength(0);
  });

  it('fails at once a host name that resolves to a private address too', async () => {
    const endpoint = await merchantWithEndpoint('/x', 'https://hooks.internal.example/x');
    const event = await enqueue(endpoint.merchantId);
    await worker({ allowPrivateTargets: false, resolve: async () => [{ address: '10.1.2.3', family: 4 }] }).runOnce();
    expect(await deliveryOf(event.id)).toMatchObject({
      state: 'failed',
      attempts: [{ number: 1, responseStatus: null, error: expect.stringContaining('resolves to a private address') }],
    });
  });

  it('still retries a delivery that failed for a reason that may pass (DNS)', async () => {
    const endpoint = await merchantWithEndpoint('/x', 'https://hooks.unresolvable.example/x');
    const event = await enqueue(endpoint.merchantId);
    await worker({ allowPrivateTargets: false, resolve: async () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })) }).runOnce();
    expect(await deliveryOf(event.id)).toMatchObject({ state: 'pending', attempts: [{ error: expect.stringContaining('ENOTFOUND') }] });
  });

  it('delivers to every endpoint of the merchant, each with its own secret', async () => {
    const first = await merchantWithEndpoint('/a');
    const second = await store.createEndpoint(first.merchantId, `${receiver.url}/b`, 'whsec_second');
    await enqueue(first.merchantId);
    worker().start();
    const requests = await receiver.waitFor(2);
    const byPath = Object.fromEntries(requests.map((r) => [r.path, r]));
    expect(v1Values(byPath['/a']!.headers['x-webhook-signature'])).toEqual([opensslHmacHex(byPath['/a']!.raw, first.secret)]);
    expect(v1Values(byPath['/b']!.headers['x-webhook-signature'])).toEqual([opensslHmacHex(byPath['/b']!.raw, second.secret)]);
  });

  describe('secret rotation', () => {
    it('signs with the new and the previous secret during the overlap (two v1 values)', async () => {
      const endpoint = await merchantWithEndpoint();
      await store.replaceSecrets(endpoint.id, endpoint.secret, {
        secret: 'whsec_new',
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: new Date(Date.now() + 60_000),
      });
      await enqueue(endpoint.merchantId);
      await worker().runOnce();
      const [request] = await receiver.waitFor(1);
      expect(v1Values(request!.headers['x-webhook-signature'])).toEqual([
        opensslHmacHex(request!.raw, 'whsec_new'),
        opensslHmacHex(request!.raw, endpoint.secret),
      ]);
    });

    it('signs with the new secret alone once the overlap is over', async () => {
      const endpoint = await merchantWithEndpoint();
      await store.replaceSecrets(endpoint.id, endpoint.secret, {
        secret: 'whsec_newer',
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: new Date(Date.now() - 1000),
      });
      await enqueue(endpoint.merchantId);
      await worker().runOnce();
      const [request] = await receiver.waitFor(1);
      expect(v1Values(request!.headers['x-webhook-signature'])).toEqual([opensslHmacHex(request!.raw, 'whsec_newer')]);
    });
  });

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

  it('stop() waits for the attempt in flight and records it', async () => {
    const endpoint = await merchantWithEndpoint();
    let answer!: () => void;
    receiver.replies = [(res) => void (answer = () => res.end())]; // answers when the test says
    const event = await enqueue(endpoint.merchantId);
    const running = worker();
    running.start();
    await receiver.waitFor(1);
    let stopped = false;
    const stopping = running.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false); // the attempt is still waiting for its answer
    answer();
    await stopping;
    const delivery = await deliveryOf(event.id);
    expect(delivery.state).toBe('succeeded');
    expect(delivery.attempts).toHaveLength(1);
  });
});
