/**
 * Where and how the outbox worker sends (test/support/delivery-worker-bench.ts): a delivery the
 * address guard refuses (a loopback address, a host resolving to a private one) fails at once and
 * is never retried, one that may pass (DNS) is; every endpoint of a merchant gets the event signed
 * with its own secret, and with both secrets during a rotation's overlap.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebhookStore } from '../src/webhooks/webhook-store.js';
import { testClock, useDeliveryWorkerBench } from './support/delivery-worker-bench.js';
import { opensslHmacHex, v1Values, type Receiver } from './support/webhook-receiver.js';

const bench = useDeliveryWorkerBench();
const { worker, merchantWithEndpoint, enqueue, deliveryOf } = bench;
let store: WebhookStore;
let receiver: Receiver;
beforeAll(() => void ({ store, receiver } = bench));

describe('DeliveryWorker', () => {
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
});
