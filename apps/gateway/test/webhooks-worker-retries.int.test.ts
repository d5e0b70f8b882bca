/**
 * The outbox worker delivering to a real receiver (test/support/delivery-worker-bench.ts): an event
 * delivered at once and signed with the endpoint's secret, retried with the same id and bytes until
 * a 2xx, each attempt recorded (and reported for metrics), the schedule's waits, giving up after
 * its last attempt, timeouts, 410 Gone and disabled endpoints, and stop() finishing the attempt in
 * flight. The address guard and secrets: webhooks-worker-targets; several workers:
 * webhooks-worker-replicas.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebhookStore } from '../src/webhooks/webhook-store.js';
import { eventually, testClock, useDeliveryWorkerBench } from './support/delivery-worker-bench.js';
import type { TestDatabase } from './support/test-database.js';
import { opensslHmacHex, v1Values, type Receiver } from './support/webhook-receiver.js';

const bench = useDeliveryWorkerBench();
const { worker, merchantWithEndpoint, enqueue, deliveryOf } = bench;
let db: TestDatabase;
let store: WebhookStore;
let receiver: Receiver;
beforeAll(() => void ({ db, store, receiver } = bench));

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
