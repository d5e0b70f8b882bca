/**
 * The admin API end to end: a real gateway over HTTP on a real database, operator credentials
 * made by the service `gateway operators create` runs, a delivery worker and a local webhook
 * receiver. Merchants, keys (the revoked one then fails on the merchant API), endpoints,
 * deliveries with their attempts and a resend, orders, the audit log; read-only vs full
 * credentials, per-merchant scoping, and refusals in the admin error shape — each refused write audited.
 */
import { CommerceGateway } from '@commerce-gateway/sdk';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

let gateway: TestGateway;
let receiver: Receiver;
let worker: DeliveryWorker;
/** Credentials: full on every merchant, read-only on every merchant, full on `shop` only. */
const op = { root: '', reader: '', shopOnly: '', shopOnlyId: '' };

type Init = RequestInit & { json?: unknown };
const admin = (token: string, path: string, init: Init = {}): Promise<Reply> =>
  call(`${gateway.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) } });
const post = (token: string, path: string, json?: unknown) => admin(token, path, { method: 'POST', ...(json === undefined ? {} : { json }) });

/** Places an order for `merchantId` through the merchant API; its order.created event goes to the merchant's endpoints. */
async function placeOrder(merchantId: string, product: string): Promise<string> {
  const gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: [merchantId] }), baseUrl: gateway.url, maxRetries: 0 });
  const session = await gw.checkoutSessions.create({ items: [{ product_id: product }], shipping_address: SF_ADDRESS, customer: { email: 'ada@example.com' } });
  return (await gw.checkoutSessions.complete(session.id)).order!.id;
}

/** The newest audit entries, as the root credential reads them. */
async function latestAudit(limit = 5): Promise<Record<string, unknown>[]> {
  const reply = await admin(op.root, `/audit?limit=${limit}`);
  expect(reply.status).toBe(200);
  return reply.body.items;
}

function expectAdminError(reply: Reply, status: number, type: string): void {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ error: expect.objectContaining({ type, message: expect.any(String), request_id: expect.any(String) }) });
  expect(reply.body.error.request_id).toBe(reply.headers.get('request-id'));
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ price: 40, quantity: 100 }])]);
  await gateway.importProducts('rival', [stocked('stool', [{ price: 15, quantity: 100 }])]);
  const operators = gateway.services.admin.operators;
  op.root = (await operators.create({ name: 'root', access: 'full', allMerchants: true })).token;
  op.reader = (await operators.create({ name: 'auditor', access: 'read', allMerchants: true })).token;
  const shopOnly = await operators.create({ name: 'shop support', access: 'full', merchantIds: ['shop'] });
  op.shopOnly = shopOnly.token;
  op.shopOnlyId = shopOnly.operator.id;
  receiver = await startReceiver();
  worker = startDeliveryWorker(gateway.db, { webhookAllowPrivateTargets: true }, pino({ level: 'silent' }), { pollIntervalMs: 20 });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await gateway?.close();
});

describe('operator credentials', () => {
  it('refuses no credential, a malformed or unknown one, and a merchant API key with 401 in the admin error shape', async () => {
    expectAdminError(await call(`${gateway.url}/admin/merchants`), 401, 'authentication_error');
    expectAdminError(await admin('op_nosuch', '/merchants'), 401, 'authentication_error');
    expectAdminError(await admin(`op_${'x'.repeat(32)}`, '/merchants'), 401, 'authentication_error');
    const merchantKey = await gateway.createKey({ merchantIds: ['shop'] });
    const withKey = await admin(merchantKey, '/merchants');
    expectAdminError(withKey, 401, 'authentication_error');
    expect(withKey.body.error.message).toMatch(/merchant API key is not an operator credential/);
    expectAdminError(await call(`${gateway.url}/admin/merchants`, { headers: { 'X-ACP-API-Key': merchantKey } }), 401, 'authentication_error');
  });

  it('an operator credential is refused on the merchant API', async () => {
    const reply = await call(`${gateway.url}/orders`, { headers: { authorization: `Bearer ${op.root}` } });
    expect(reply.status).toBe(401);
    expect(reply.body.error.type).toBe('authentication_error');
  });

  it('a revoked credential is refused at its next request; answers carry the rate-limit headers', async () => {
    const { operator, token } = await gateway.services.admin.operators.create({ name: 'temp', access: 'read', allMerchants: true });
    const ok = await admin(token, '/merchants');
    expect(ok.status).toBe(200);
    expect(Number(ok.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(ok.headers.get('x-ratelimit-remaining')).not.toBeNull();
    await gateway.services.admin.operators.revoke(operator.id);
    const refused = await admin(token, '/merchants');
    expectAdminError(refused, 401, 'authentication_error');
    expect(refused.body.error.message).toMatch(/revoked/);
  });

  it('a write with a bad credential is refused and audited without an operator', async () => {
    const refused = await post('op_nosuch', '/merchants', { id: 'sneaky' });
    expectAdminError(refused, 401, 'authentication_error');
    const [entry] = await latestAudit(1);
    expect(entry).toMatchObject({ operator_id: null, operation: 'createMerchant', method: 'POST', path: '/admin/merchants', outcome: 'refused', status: 401, request_id: refused.body.error.request_id });
    expect(entry!.detail).toMatch(/^authentication_error: /);
    expect((await admin(op.root, '/merchants?limit=100')).body.items.map((m: { id: string }) => m.id)).not.toContain('sneaky');
  });
});

describe('merchants', () => {
  it('lists the merchants a credential serves, newest first, by cursor', async () => {
    const all = await admin(op.root, '/merchants');
    expect(all.status).toBe(200);
    expect(all.body.items.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(['shop', 'rival']));
    const scoped = await admin(op.shopOnly, '/merchants');
    expect(scoped.body).toEqual({ items: [{ id: 'shop', name: 'shop', created_at: expect.any(String), stripe_account_id: null }], has_more: false, next_cursor: null });
    const first = await admin(op.root, '/merchants?limit=1');
    expect(first.body).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const second = await admin(op.root, `/merchants?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expectAdminError(await admin(op.root, '/merchants?cursor=bogus'), 400, 'invalid_request');
    expectAdminError(await admin(op.root, '/merchants?limit=0'), 400, 'invalid_request');
  });

  it('creates a merchant with a full all-merchants credential; a taken id is 409; read-only, per-merchant and malformed are refused and audited', async () => {
    const created = await post(op.root, '/merchants', { id: 'newco', name: 'New Co' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 'newco', name: 'New Co', created_at: expect.any(String), stripe_account_id: null });
    expectAdminError(await post(op.root, '/merchants', { id: 'newco' }), 409, 'conflict');
    expectAdminError(await post(op.reader, '/merchants', { id: 'readco' }), 403, 'authorization_error');
    expectAdminError(await post(op.shopOnly, '/merchants', { id: 'shopco' }), 403, 'authorization_error');
    const malformed = await post(op.root, '/merchants', { id: 'bad id!' });
    expectAdminError(malformed, 400, 'invalid_request');
    expect(malformed.body.error.param).toMatch(/id/);
    expectAdminError(await admin(op.root, '/merchants', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":' }), 400, 'invalid_request');
    const ids = (await admin(op.root, '/merchants?limit=100')).body.items.map((m: { id: string }) => m.id);
    expect(ids).not.toEqual(expect.arrayContaining(['readco']));
    expect(ids).not.toContain('shopco');
    const entries = await latestAudit(6);
    expect(entries.map((e) => [e.operation, e.outcome, e.status, e.target])).toEqual([
      ['createMerchant', 'refused', 400, null],
      ['createMerchant', 'refused', 400, 'bad id!'],
      ['createMerchant', 'refused', 403, 'shopco'],
      ['createMerchant', 'refused', 403, null],
      ['createMerchant', 'refused', 409, 'newco'],
      ['createMerchant', 'succeeded', 201, 'newco'],
    ]);
  });
});

describe('API keys', () => {
  it('creates a key (the secret shown once), lists it without the secret, revokes it — and the revoked key then fails on the merchant API', async () => {
    const created = await post(op.shopOnly, '/merchants/shop/keys', { scopes: ['orders:read'] });
    expect(created.status).toBe(201);
    const { api_key: key, secret } = created.body;
    expect(secret).toMatch(/^sk_dev_[0-9A-Za-z]{32}$/);
    expect(key).toMatchObject({ merchant_ids: ['shop'], scopes: ['orders:read'], display: `sk_dev_…${secret.slice(-4)}`, revoked_at: null });
    expect((await call(`${gateway.url}/orders`, { headers: { 'X-ACP-API-Key': secret } })).status).toBe(200);

    const listed = await admin(op.reader, '/merchants/shop/keys');
    expect(listed.status).toBe(200);
    expect(listed.body.items[0]).toEqual(key); // newest first
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const revoked = await post(op.shopOnly, `/keys/${key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const after = await call(`${gateway.url}/orders`, { headers: { 'X-ACP-API-Key': secret } });
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/revoked/);
    expect((await latestAudit(1))[0]).toMatchObject({ operation: 'revokeApiKey', operator_id: op.shopOnlyId, target: key.id, merchant_id: 'shop', outcome: 'succeeded' });
  });

  it('refuses a key for a merchant that does not exist (none is created), for a merchant out of scope, and a revoke of another merchant\'s key', async () => {
    expectAdminError(await post(op.root, '/merchants/ghost/keys', {}), 404, 'not_found');
    expect((await admin(op.root, '/merchants?limit=100')).body.items.map((m: { id: string }) => m.id)).not.toContain('ghost');
    expectAdminError(await post(op.shopOnly, '/merchants/rival/keys', {}), 403, 'authorization_error');
    expectAdminError(await admin(op.shopOnly, '/merchants/rival/keys'), 403, 'authorization_error');
    const rivalKey = (await post(op.root, '/merchants/rival/keys', {})).body.api_key;
    expectAdminError(await post(op.shopOnly, `/keys/${rivalKey.id}/revoke`), 404, 'not_found');
    expect((await admin(op.root, '/merchants/rival/keys')).body.items.find((k: { id: string }) => k.id === rivalKey.id).revoked_at).toBeNull();
    expectAdminError(await post(op.root, '/merchants/shop/keys', { scopes: ['everything'] }), 400, 'invalid_request');
    const entries = await latestAudit(3);
    expect(entries.map((e) => [e.operation, e.operator_id, e.outcome, e.status])).toEqual([
      ['createApiKey', expect.any(String), 'refused', 400],
      ['revokeApiKey', op.shopOnlyId, 'refused', 404],
      ['createApiKey', expect.any(String), 'succeeded', 201],
    ]);
  });
});

describe('webhook endpoints, deliveries and resend', () => {
  let endpointId: string;
  let orderId: string;

  it('adds an endpoint at a local receiver; an order\'s delivery is listed with its attempt, per endpoint and per event, and on the order', async () => {
    const added = await post(op.shopOnly, '/merchants/shop/webhook_endpoints', { url: `${receiver.url}/hooks` });
    expect(added.status).toBe(201);
    expect(added.body.secret).toEqual(expect.any(String));
    expect(added.body.webhook_endpoint).toMatchObject({ merchant_id: 'shop', url: `${receiver.url}/hooks`, protocol: 'gateway', enabled: true });
    endpointId = added.body.webhook_endpoint.id;
    const listed = await admin(op.reader, '/merchants/shop/webhook_endpoints');
    expect(listed.body.items.map((e: { id: string }) => e.id)).toEqual([endpointId]);

    orderId = await placeOrder('shop', 'chair');
    const [request] = await receiver.waitFor(1);
    expect(request!.json.type).toBe('order.created');

    let deliveries: Reply | undefined;
    await expect.poll(async () => (deliveries = await admin(op.reader, `/webhook_endpoints/${endpointId}/deliveries`)).body.items[0]?.state).toBe('succeeded');
    const delivery = deliveries!.body.items[0];
    expect(delivery).toMatchObject({ event_id: request!.json.id, event_type: 'order.created', webhook_endpoint_id: endpointId, merchant_id: 'shop', attempt_count: 1, next_attempt_at: null });
    expect(delivery.attempts).toEqual([{ number: 1, attempted_at: expect.any(String), response_status: 200, latency_ms: expect.any(Number), error: null, response_excerpt: 'ok' }]);

    const perEvent = await admin(op.reader, `/events/${request!.json.id}/deliveries`);
    expect(perEvent.body.items).toEqual([delivery]);

    const order = await admin(op.reader, `/merchants/shop/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body.order.id).toBe(orderId);
    expect(order.body.events).toEqual([{ id: request!.json.id, type: 'order.created', created_at: expect.any(String), deliveries: [delivery] }]);
    // The movements of its money, as the payment operations recorded them (the test provider: authorized, then captured after the commit).
    expect(order.body.order.payment).toMatchObject({ provider: 'test', status: 'captured' });
    expect(order.body.payment_operations.map((op: { kind: string; state: string; next_attempt_at: string | null }) => [op.kind, op.state, op.next_attempt_at])).toEqual([
      ['authorize', 'succeeded', null],
      ['capture', 'succeeded', null],
    ]);
    expect((await admin(op.reader, '/merchants/shop/orders')).body.items.map((o: { id: string }) => o.id)).toContain(orderId);
  });

  it('resends a delivery: the worker makes a new attempt of the same event, listed after the first', async () => {
    const [delivery] = (await admin(op.reader, `/webhook_endpoints/${endpointId}/deliveries`)).body.items;
    receiver.reply = (res) => {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`busy ✓ ${'z'.repeat(2000)}`); // longer than the excerpt keeps
    };
    const resent = await post(op.shopOnly, `/deliveries/${delivery.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: delivery.id, state: 'pending', next_attempt_at: expect.any(String) });
    const [, again] = await receiver.waitFor(2);
    expect(again!.json.id).toBe(delivery.event_id);
    let shown: Reply | undefined;
    await expect.poll(async () => (shown = await admin(op.reader, `/deliveries/${delivery.id}`)).body.attempts.length).toBe(2);
    expect(shown!.body.attempts[1]).toMatchObject({ number: 2, response_status: 503 });
    expect(shown!.body.attempts[1].response_excerpt).toBe(`busy ✓ ${'z'.repeat(512 - Buffer.byteLength('busy ✓ '))}`);
    expect(shown!.body).toMatchObject({ state: 'pending', next_attempt_at: expect.any(String) }); // a retry is due
    receiver.reply = 200;
    expect((await latestAudit(1))[0]).toMatchObject({ operation: 'resendDelivery', target: delivery.id, merchant_id: 'shop', outcome: 'succeeded', operator_id: op.shopOnlyId });
  });

  it('refuses a resend of another merchant\'s delivery (per-merchant credential) and a read-only resend; nothing is queued, each refusal audited', async () => {
    await post(op.root, '/merchants/rival/webhook_endpoints', { url: `${receiver.url}/rival` });
    const before = receiver.requests.length;
    await placeOrder('rival', 'stool');
    await receiver.waitFor(before + 1);
    const rivalEndpoint = (await admin(op.root, '/merchants/rival/webhook_endpoints')).body.items[0];
    let rivalDelivery: Record<string, unknown> | undefined;
    await expect.poll(async () => (rivalDelivery = (await admin(op.root, `/webhook_endpoints/${rivalEndpoint.id}/deliveries`)).body.items[0])?.state).toBe('succeeded');

    expectAdminError(await post(op.shopOnly, `/deliveries/${rivalDelivery!.id}/resend`), 404, 'not_found');
    expectAdminError(await admin(op.shopOnly, `/deliveries/${rivalDelivery!.id}`), 404, 'not_found');
    expectAdminError(await admin(op.shopOnly, `/webhook_endpoints/${rivalEndpoint.id}/deliveries`), 404, 'not_found');
    expectAdminError(await post(op.reader, `/deliveries/${rivalDelivery!.id}/resend`), 403, 'authorization_error');
    expectAdminError(await post(op.root, '/deliveries/wd_nosuch/resend'), 404, 'not_found');
    expect((await admin(op.root, `/deliveries/${rivalDelivery!.id}`)).body).toMatchObject({ state: 'succeeded', attempt_count: 1 });

    const entries = await latestAudit(3);
    expect(entries.map((e) => [e.operation, e.outcome, e.status, e.target])).toEqual([
      ['resendDelivery', 'refused', 404, 'wd_nosuch'],
      ['resendDelivery', 'refused', 403, rivalDelivery!.id],
      ['resendDelivery', 'refused', 404, rivalDelivery!.id],
    ]);
    expect(entries[2]).toMatchObject({ operator_id: op.shopOnlyId, merchant_id: null }); // never the merchant the refusal kept from it
    // The per-merchant credential reads its own entries and its merchant's, never the rival's others.
    const scoped = (await admin(op.shopOnly, '/audit?limit=100')).body.items as Record<string, unknown>[];
    expect(scoped.every((e) => e.merchant_id === 'shop' || e.operator_id === op.shopOnlyId)).toBe(true);
    expect(scoped.some((e) => e.merchant_id === 'rival')).toBe(false);
  });

  it('disables (a resend is then 405), enables, rotates the secret of, and removes an endpoint', async () => {
    const disabled = await post(op.shopOnly, `/webhook_endpoints/${endpointId}/disable`);
    expect(disabled.body).toMatchObject({ id: endpointId, enabled: false, disabled_at: expect.any(String) });
    const [delivery] = (await admin(op.reader, `/webhook_endpoints/${endpointId}/deliveries`)).body.items;
    expectAdminError(await post(op.shopOnly, `/deliveries/${delivery.id}/resend`), 405, 'method_not_allowed');
    expect((await post(op.shopOnly, `/webhook_endpoints/${endpointId}/enable`)).body).toMatchObject({ enabled: true, disabled_at: null });
    const rotated = await post(op.shopOnly, `/webhook_endpoints/${endpointId}/rotate_secret`, { overlap_seconds: 60 });
    expect(rotated.body).toEqual({ webhook_endpoint_id: endpointId, secret: expect.any(String), previous_secret_expires_at: expect.any(String) });
    expectAdminError(await post(op.shopOnly, `/webhook_endpoints/${endpointId}/rotate_secret`, { overlap_seconds: -1 }), 400, 'invalid_request');
    expectAdminError(await admin(op.reader, `/webhook_endpoints/${endpointId}`, { method: 'DELETE' }), 403, 'authorization_error');
    const removed = await admin(op.shopOnly, `/webhook_endpoints/${endpointId}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await admin(op.reader, '/merchants/shop/webhook_endpoints')).body.items).toEqual([]);
    expectAdminError(await admin(op.reader, `/deliveries/${delivery.id}`), 404, 'not_found');
  });
});

describe('orders', () => {
  it('fulfils an order through the orders service; a cancel of a fulfilled order is 405; read-only is 403', async () => {
    const orderId = await placeOrder('shop', 'chair');
    expectAdminError(await post(op.reader, `/merchants/shop/orders/${orderId}/fulfillments`, {}), 403, 'authorization_error');
    const fulfilled = await post(op.shopOnly, `/merchants/shop/orders/${orderId}/fulfillments`, { carrier: 'UPS', tracking_number: '1Z999' });
    expect(fulfilled.status).toBe(200);
    expect(fulfilled.body).toMatchObject({ id: orderId, status: 'fulfilled' });
    expectAdminError(await post(op.shopOnly, `/merchants/shop/orders/${orderId}/cancel`), 405, 'method_not_allowed');
    const refunded = await post(op.shopOnly, `/merchants/shop/orders/${orderId}/refunds`, { reason: 'other' });
    expect(refunded.body.status).toBe('refunded');
    expectAdminError(await admin(op.shopOnly, `/merchants/rival/orders`), 403, 'authorization_error');
    expectAdminError(await admin(op.root, '/merchants/shop/orders/ord_nosuch'), 404, 'not_found');
  });
});

describe('audit log', () => {
  it('is read newest first, one page at a time', async () => {
    const first = await admin(op.reader, '/audit?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const second = await admin(op.reader, `/audit?limit=2&cursor=${first.body.next_cursor}`);
    const times = [...first.body.items, ...second.body.items].map((e: { created_at: string }) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set([...first.body.items, ...second.body.items].map((e: { id: string }) => e.id)).size).toBe(4);
  });

  it('reads are not audited; the log cannot be changed', async () => {
    const before = (await latestAudit(1))[0];
    await admin(op.root, '/merchants');
    expect((await latestAudit(1))[0]).toEqual(before);
    const count = await gateway.db.prisma.adminAuditEntry.count();
    expect((await gateway.db.prisma.adminAuditEntry.deleteMany({})).count).toBe(0);
    expect((await gateway.db.prisma.adminAuditEntry.updateMany({ data: { outcome: 'succeeded' } })).count).toBe(0);
    expect(await gateway.db.prisma.adminAuditEntry.count()).toBe(count);
    expect((await latestAudit(1))[0]).toEqual(before);
  });
});

describe('documentation', () => {
  it('serves the admin contract at /docs/admin/openapi.json and lists it in /docs as a fourth document', async () => {
    const document = await call(`${gateway.url}/docs/admin/openapi.json`);
    expect(document.status).toBe(200);
    expect(document.body.info.title).toBe('Commerce Gateway admin API');
    expect(Object.keys(document.body.paths)).toEqual(expect.arrayContaining(['/admin/merchants', '/admin/deliveries/{delivery_id}/resend', '/admin/audit']));
    const init = await fetch(`${gateway.url}/docs/init.js`).then((r) => r.text());
    expect(init).toContain("url: '/docs/admin/openapi.json'");
  });

  it('an unknown admin path is 404 and a wrong method 405, in the admin error shape', async () => {
    expectAdminError(await admin(op.root, '/nosuch'), 404, 'not_found');
    expectAdminError(await admin(op.root, '/merchants', { method: 'DELETE' }), 405, 'method_not_allowed');
  });
});
