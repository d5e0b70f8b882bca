/**
 * UCP orders over HTTP, end to end, for each release: a platform checks out through UCP REST (its
 * profile names its order webhook_url, a real receiver on 127.0.0.1), the order is placed, shipped
 * with POST /testing/simulate-shipping, and the platform receives both order events, signed as the
 * release says, verified with the keys of the gateway's /.well-known/ucp. `GET /ucp/orders/{id}`
 * answers the order to the platform that placed it, at 2026-04-08, and to no one else. Every order
 * is validated against the official schemas (support/official-ucp.ts, independent of the gateway's).
 */
import { verifyUcpDetachedJws, verifyUcpRequest, type UcpJwk } from '@commerce-gateway/webhooks';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { checkoutCalls, SF_ADDRESS, stocked } from './support/checkout.js';
import { call } from './support/http.js';
import { ERROR_RESPONSE, schemaProblems, type UcpRelease } from './support/official-ucp.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { ucpWorker } from './support/ucp-orders.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver, type ReceivedRequest } from './support/webhook-receiver.js';

const ORDER = ['https://ucp.dev/schemas/shopping/order.json'];
const SECRET = 'simulation-secret-for-tests-0001';
const SHIPPING = { zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 7 } }] }] };
const DESTINATION = { street_address: '9 Elm St', address_locality: 'Salem', address_region: 'OR', postal_code: '97301', address_country: 'US', first_name: 'Grace', last_name: 'Hopper' };

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let gateway: TestGateway;
let profiles: ProfileServer;
let receiver: Receiver;
let key: string;
let otherKey: string;
const workers: DeliveryWorker[] = [];

beforeAll(async () => {
  gateway = await startTestGateway({ UCP_SIMULATION_SECRET: SECRET });
  await gateway.services.ucpSigningKeys.load();
  await gateway.importProducts('orders-shop', [stocked('chair', [{ sku: 'chair-oak', price: 100, quantity: 50 }])]);
  await gateway.services.shipping.import('orders-shop', SHIPPING);
  await gateway.importProducts('orders-other', [stocked('stool', [{ sku: 'stool-1', price: 10, quantity: 5 }])]);
  key = await gateway.createKey({ merchantIds: ['orders-shop'] });
  otherKey = await gateway.createKey({ merchantIds: ['orders-other'] });
  receiver = await startReceiver();
  profiles = await startProfileServer();
  for (const release of ['2026-04-08', '2026-01-11'] as const) {
    profiles.route(`/platform/${release}`, json(shoppingPlatformProfile(release, `${receiver.url}/webhooks/${release}`)));
  }
  profiles.route('/other-platform', json(shoppingPlatformProfile('2026-04-08', `${receiver.url}/webhooks/other`)));
}, 60_000);
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  receiver.requests.length = 0;
});
afterAll(async () => {
  await receiver?.close();
  await profiles?.close();
  await gateway?.close();
});

function platform(release: UcpRelease, apiKey = key, profile = `/platform/${release}`) {
  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${apiKey}`, 'ucp-agent': `profile="${profiles.url}${profile}"`, 'request-id': randomUUID(), ...extra });
  const send = (method: string, path: string, body?: unknown) =>
    call(`${gateway.url}/ucp${path}`, { method, headers: headers(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }), ...(body !== undefined ? { json: body } : {}) });
  return {
    create: (body: unknown) => send('POST', '/checkout-sessions', body),
    update: (id: string, body: unknown) => send('PUT', `/checkout-sessions/${id}`, body),
    complete: (id: string, body: unknown) => send('POST', `/checkout-sessions/${id}/complete`, body),
    order: (id: string) => send('GET', `/orders/${id}`),
  };
}

function payWith(release: UcpRelease): Body {
  const base = { id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', credential: { type: 'token', token: 'success_token' } };
  if (release === '2026-01-11') return { payment_data: { ...base, brand: 'visa', last_digits: '4242' } };
  return { payment: { instruments: [{ ...base, display: { brand: 'visa', last_digits: '4242' }, selected: true }] } };
}

/** Two chairs shipped to DESTINATION, checked out and paid through UCP REST; the order id. */
async function ucpOrder(release: UcpRelease): Promise<string> {
  const agent = platform(release);
  const lines = [{ item: { id: 'chair-oak' }, quantity: 2 }];
  const buyer = { email: 'grace@example.com' };
  const created = await agent.create({ line_items: lines, buyer, fulfillment: { methods: [{ type: 'shipping', destinations: [DESTINATION] }] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const method = (created.body as Body).fulfillment.methods[0];
  const chosen = await agent.update((created.body as Body).id, {
    id: (created.body as Body).id,
    line_items: lines,
    buyer,
    fulfillment: { methods: [{ id: method.id, type: 'shipping', line_item_ids: method.line_item_ids, selected_destination_id: method.selected_destination_id, groups: [{ id: method.groups[0].id, selected_option_id: 'standard' }] }] },
  });
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
  const completed = await agent.complete((created.body as Body).id, payWith(release));
  expect((completed.body as Body).status, JSON.stringify(completed.body)).toBe('completed');
  return (completed.body as Body).order.id;
}

async function publishedKeys(): Promise<UcpJwk[]> {
  return ((await (await fetch(`${gateway.url}/.well-known/ucp`)).json()) as { signing_keys: UcpJwk[] }).signing_keys;
}

function verified(release: UcpRelease, request: ReceivedRequest, keys: UcpJwk[]): Body {
  if (release === '2026-01-11') return verifyUcpDetachedJws(request.raw, request.headers['request-signature'] as string, keys);
  return verifyUcpRequest({ method: 'POST', url: `${receiver.url}${request.path}`, headers: request.headers as Record<string, string>, body: request.raw }, keys);
}

describe.each([['2026-04-08'], ['2026-01-11']] as [UcpRelease][])('UCP %s', (release) => {
  it('the platform receives the placed and the shipped order at its webhook_url, signed with a published key', async () => {
    const orderId = await ucpOrder(release);
    const shipped = await fetch(`${gateway.url}/testing/simulate-shipping/${orderId}`, { method: 'POST', headers: { 'Simulation-Secret': SECRET } });
    expect(shipped.status).toBe(200);
    workers.push(ucpWorker(gateway));
    const requests = await receiver.waitFor(2);
    const keys = await publishedKeys();
    const [placed, delivered] = requests.map((request) => {
      expect(request.path).toBe(`/webhooks/${release}`);
      return verified(release, request, keys);
    });
    for (const order of [placed, delivered]) {
      expect(schemaProblems(release, ORDER, order)).toEqual([]);
      expect(order).toMatchObject({ id: orderId, ucp: { version: release } });
    }
    expect(placed.line_items[0]).toMatchObject({ item: { id: 'chair' }, quantity: { total: 2, fulfilled: 0 }, status: 'processing' });
    expect(placed.fulfillment.expectations[0]).toMatchObject({ method_type: 'shipping', destination: { address_locality: 'Salem' } });
    expect(delivered.line_items[0]).toMatchObject({ quantity: { total: 2, fulfilled: 2 }, status: 'fulfilled' });
    expect(delivered.fulfillment.events[0]).toMatchObject({ type: 'shipped', tracking_number: expect.stringMatching(/^SIM/) });
  });
});

describe('GET /ucp/orders/{id}', () => {
  it('answers the order placed by this platform, at 2026-04-08, valid against the official order.json', async () => {
    const orderId = await ucpOrder('2026-04-08');
    const reply = await platform('2026-04-08').order(orderId);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(schemaProblems('2026-04-08', ORDER, reply.body)).toEqual([]);
    expect(reply.body).toMatchObject({ id: orderId, currency: 'USD', ucp: { version: '2026-04-08', capabilities: { 'dev.ucp.shopping.order': [{ version: '2026-04-08' }] } } });
    expect((reply.body as Body).totals.find((t: Body) => t.type === 'total').amount).toBe(20_700);
  });

  it('is not found for another merchant, another platform, an order not placed through UCP, or an unknown id', async () => {
    const orderId = await ucpOrder('2026-04-08');
    // A business outcome (order-rest.md "Not Found"): 200 with the error envelope.
    const notFound = (reply: { status: number; body: unknown }) => {
      expect(reply.status).toBe(200);
      expect(schemaProblems('2026-04-08', [ERROR_RESPONSE], reply.body)).toEqual([]);
      expect(reply.body).toMatchObject({ ucp: { status: 'error' }, messages: [{ type: 'error', code: 'not_found', severity: 'unrecoverable' }] });
    };
    notFound(await platform('2026-04-08', otherKey).order(orderId));
    notFound(await platform('2026-04-08', key, '/other-platform').order(orderId));
    notFound(await platform('2026-04-08').order('ord_no_such_order'));
    const ours = checkoutCalls(gateway.url, key);
    const created = await ours.create({ items: [{ product_id: 'chair', quantity: 1 }], shipping_address: SF_ADDRESS });
    const completed = await ours.complete(created.body.checkout_session.id);
    notFound(await platform('2026-04-08').order(completed.body.checkout_session.order!.id));
  });
});
