/**
 * POST /webhooks/emit through real HTTP on a real database, delivering to a
 * real receiver on loopback (development settings: private targets allowed).
 * Signatures are checked with the openssl binary, independent of our code.
 */
import { verify } from '@commerce-gateway/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { DEMO_WEBHOOK_SECRET } from '../src/webhooks/demo-secret.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { product } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { opensslHmacHex, startReceiver, v1Values, type Receiver } from './support/webhook-receiver.js';

let gateway: TestGateway;
let receiver: Receiver;
let key: string;
let otherKey: string;
let sessionId: string;
let session: Record<string, unknown>;

type Json = Record<string, any>;

async function call(method: string, path: string, body: unknown, apiKey = key): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { 'X-ACP-API-Key': apiKey, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}
const emit = (body: Json, apiKey = key) => call('POST', '/webhooks/emit', body, apiKey);

beforeAll(async () => {
  gateway = await startTestGateway();
  receiver = await startReceiver();
  await gateway.importProducts('shop', [product({ id: 'lamp', price: 30 })]);
  await gateway.importProducts('other-shop', [product({ id: 'mug', price: 12 })]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
  otherKey = await gateway.createKey({ merchantIds: ['other-shop'] });
  const created = await call('POST', '/checkout_sessions', { items: [{ product_id: 'lamp', quantity: 2 }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  sessionId = created.body.checkout_session.id;
  session = (await call('GET', `/checkout_sessions/${sessionId}`, undefined)).body.checkout_session;
});

afterAll(async () => {
  await receiver?.close();
  await gateway?.close();
});

describe('POST /webhooks/emit without target_url', () => {
  it.each(['order.created', 'order.updated', 'order.fulfilled', 'order.canceled', 'order.refunded', 'order.disputed'])(
    'builds and signs %s with the demo secret, delivering nothing',
    async (type) => {
      const res = await emit({ event_type: type, payload: { order_id: 'ord_1' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        delivered: null,
        signature: expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
        payload: { id: expect.stringMatching(/^evt_[A-Za-z0-9]{24}$/), type, created: expect.any(String), data: { object: { order_id: 'ord_1' } } },
      });
      expect(new Date(res.body.payload.created).toISOString()).toBe(res.body.payload.created);
      const bytes = Buffer.from(JSON.stringify(res.body.payload));
      expect(v1Values(res.body.signature)).toEqual([opensslHmacHex(bytes, DEMO_WEBHOOK_SECRET)]);
      const t = Number(/^t=(\d+)/.exec(res.body.signature)![1]);
      expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
    },
  );

  it('gives every event a fresh id', async () => {
    const a = await emit({ event_type: 'order.created' });
    const b = await emit({ event_type: 'order.created' });
    expect(a.body.payload.id).not.toBe(b.body.payload.id);
  });

  it('signs with signature_secret when given', async () => {
    const res = await emit({ event_type: 'order.updated', signature_secret: 'whsec_mine' });
    const bytes = Buffer.from(JSON.stringify(res.body.payload));
    expect(v1Values(res.body.signature)).toEqual([opensslHmacHex(bytes, 'whsec_mine')]);
    expect(() => verify(bytes, res.body.signature, 'whsec_mine')).not.toThrow();
  });

  it('uses {} as data.object without a session or payload', async () => {
    expect((await emit({ event_type: 'order.updated' })).body.payload.data).toEqual({ object: {} });
  });

  it('uses the checkout session, exactly as the checkout endpoints show it', async () => {
    const res = await emit({ event_type: 'order.created', checkout_session_id: sessionId });
    expect(res.status).toBe(200);
    expect(res.body.payload.data.object).toEqual(session);
  });

  it("adds the payload's keys to the session, the session's own fields winning", async () => {
    const res = await emit({
      event_type: 'order.updated',
      checkout_session_id: sessionId,
      payload: { id: 'not-the-session', status: 'hacked', tracking_number: '1Z999', note: { nested: true } },
    });
    expect(res.body.payload.data.object).toEqual({ ...session, tracking_number: '1Z999', note: { nested: true } });
  });

  it.each([
    ['an unknown session', () => emit({ event_type: 'order.created', checkout_session_id: 'cs_doesnotexist' })],
    ["another merchant's session", () => emit({ event_type: 'order.created', checkout_session_id: sessionId }, otherKey)],
  ])('answers 404 for %s', async (_, attempt) => {
    const res = await attempt();
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found', detail: expect.any(String) });
  });

  it('needs checkout:read as well as webhooks:write to put a session in an event', async () => {
    const emitOnly = await gateway.createKey({ merchantIds: ['shop'], scopes: ['webhooks:write'] });
    const refused = await emit({ event_type: 'order.created', checkout_session_id: sessionId }, emitOnly);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { type: 'authorization_error', message: expect.stringContaining('checkout:read') } });
    expect((await emit({ event_type: 'order.created', payload: { order_id: 'ord_9' } }, emitOnly)).status).toBe(200);
    const both = await gateway.createKey({ merchantIds: ['shop'], scopes: ['webhooks:write', 'checkout:read'] });
    expect((await emit({ event_type: 'order.created', checkout_session_id: sessionId }, both)).status).toBe(200);
  });

  it.each([
    ['a missing event_type', {}],
    ['an unknown event_type', { event_type: 'order.exploded' }],
    ['an unknown field', { event_type: 'order.created', extra: 1 }],
    ['an empty signature_secret', { event_type: 'order.created', signature_secret: '' }],
    ['a payload that is not an object', { event_type: 'order.created', payload: [1, 2] }],
    ['an ftp target', { event_type: 'order.created', target_url: 'ftp://example.com/x' }],
  ])('answers 400 invalid_request for %s', async (_, body) => {
    const res = await emit(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request' });
  });
});

describe('POST /webhooks/emit with target_url', () => {
  it('POSTs the signed event once: the receiver gets exactly the returned payload, and openssl agrees with the signature', async () => {
    receiver.reply = 200;
    const before = receiver.requests.length;
    const res = await emit({ event_type: 'order.created', checkout_session_id: sessionId, target_url: `${receiver.url}/hooks`, signature_secret: 'whsec_e2e' });
    expect(res.status).toBe(200);
    expect(res.body.delivered).toBe(200);
    const got = receiver.requests.slice(before);
    expect(got).toHaveLength(1);
    const [request] = got as [(typeof got)[number]];
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.raw.toString('utf8')).toBe(JSON.stringify(res.body.payload));
    expect(request.headers['x-webhook-signature']).toBe(res.body.signature);
    expect(v1Values(request.headers['x-webhook-signature'])).toEqual([opensslHmacHex(request.raw, 'whsec_e2e')]);
    expect(verify(request.raw, request.headers['x-webhook-signature'], 'whsec_e2e').id).toBe(res.body.payload.id);
  });

  it.each([200, 201, 202, 204, 301, 400, 401, 404, 410, 422, 500, 502, 503])('answers 200 with delivered = the target\'s %i', async (status) => {
    receiver.reply = status;
    const res = await emit({ event_type: 'order.fulfilled', target_url: `${receiver.url}/status` });
    expect(res.status).toBe(200);
    expect(res.body.delivered).toBe(status);
  });

  it('answers 502 bad_gateway with the reason when the target refuses the connection', async () => {
    const down = await startReceiver();
    await down.close();
    const res = await emit({ event_type: 'order.created', target_url: `${down.url}/gone` });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 'bad_gateway', detail: `Webhook delivery to 127.0.0.1:${down.port} failed: connection refused` });
  });
});

describe('POST /webhooks/emit where private targets are refused', () => {
  let strict: TestGateway;
  beforeAll(async () => {
    strict = await startTestGateway({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, db: gateway.db });
  });
  afterAll(() => strict?.close());

  it.each([
    ['mapped loopback', () => `http://[::ffff:127.0.0.1]:${new URL(receiver.url).port}/x`, 'loopback'],
    ['translated loopback (RFC 2765)', () => `http://[::ffff:0:127.0.0.1]:${new URL(receiver.url).port}/x`, 'loopback'],
    ['translated cloud metadata', () => 'http://[::ffff:0:169.254.169.254]/latest/meta-data/', 'cloud-metadata'],
    ['Teredo with a loopback client', () => 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x', 'loopback'],
    ['Teredo with a private server', () => 'http://[2001:0:a00:1:8000:63bf:f7f7:f7f7]/x', 'private'],
    ['Teredo between public addresses', () => 'http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/x', 'Teredo (tunnelled IPv4)'],
  ])('refuses %s with 400 naming the class, sending nothing', async (_name, target, kind) => {
    const received = receiver.requests.length;
    const res = await fetch(`${strict.url}/webhooks/emit`, {
      method: 'POST',
      headers: { 'X-ACP-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ event_type: 'order.created', target_url: target(), signature_secret: 'whsec_x' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_request', param: 'target_url', detail: expect.stringContaining(`a ${kind} address`) });
    expect(receiver.requests).toHaveLength(received);
  });
});

describe('automatic order.created', () => {
  it('is delivered to the merchant\'s endpoint when a session is completed, with the completed session as data.object', async () => {
    const hooks = await startReceiver();
    const store = new WebhookStore(gateway.db);
    const endpoint = await store.createEndpoint('shop', `${hooks.url}/orders`, 'whsec_shop_endpoint');
    const worker = new DeliveryWorker({ store, allowPrivateTargets: true, pollIntervalMs: 10 });
    try {
      const address = { name: 'Ada', line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
      const created = await call('POST', '/checkout_sessions', { items: [{ product_id: 'lamp' }], shipping_address: address });
      const completed = await call('POST', `/checkout_sessions/${created.body.checkout_session.id}/complete`, undefined);
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      worker.start();
      const [request] = await hooks.waitFor(1);
      expect(request!.json).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        type: 'order.created',
        data: { object: completed.body.checkout_session },
      });
      expect(completed.body.checkout_session.order).toMatchObject({ id: expect.stringMatching(/^ord_/) });
      expect(v1Values(request!.headers['x-webhook-signature'])).toEqual([opensslHmacHex(request!.raw, endpoint.secret)]);
    } finally {
      await worker.stop();
      await hooks.close();
    }
  });
});
