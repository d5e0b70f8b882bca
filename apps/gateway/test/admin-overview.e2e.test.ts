/**
 * The console's reads of a merchant at a glance, on the real database: the overview (today's
 * orders and revenue per currency, 14 days of orders, payments needing attention, failing
 * endpoints), and each webhook endpoint's health (attempts, success rate, latency, last failure)
 * with deliveries naming their endpoint's URL.
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
let endpointId = '';
const op = { shop: '', rival: '' };

const admin = (token: string, path: string): Promise<Reply> => call(`${gateway.url}/admin${path}`, { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('desk-chair', [{ price: 40, quantity: 100 }], { title: 'Desk chair' })]);
  await gateway.importProducts('rival', [stocked('stool', [{ price: 15, quantity: 10 }])]);
  op.shop = (await gateway.services.admin.operators.create({ name: 'shop ops', access: 'read', merchantIds: ['shop'] })).token;
  receiver = await startReceiver();
  receiver.reply = 503;
  worker = startDeliveryWorker(gateway.db, { webhookAllowPrivateTargets: true }, pino({ level: 'silent' }), { pollIntervalMs: 20 });
  endpointId = (await gateway.services.admin.webhookEndpoints.add('shop', `${receiver.url}/hooks`, 'gateway')).id;
  const gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['shop'] }), baseUrl: gateway.url, maxRetries: 0 });
  for (const quantity of [1, 2]) {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'desk-chair', quantity }], shipping_address: SF_ADDRESS, customer: { email: 'grace@example.com' } });
    await gw.checkoutSessions.complete(session.id);
  }
  await receiver.waitFor(1, 20_000);
  // A payment operation the PSP refused: what the home page's "needing attention" counts.
  await gateway.db.prisma.paymentOperation.create({
    data: { id: 'pop_failed1', merchantId: 'shop', sessionId: 'cs_x', kind: 'capture', state: 'failed', provider: 'test', amount: 4000n, currency: 'USD', idempotencyKey: 'k-failed-1', lastError: 'card_declined' },
  });
  await gateway.db.prisma.paymentOperation.create({
    data: { id: 'pop_ok1', merchantId: 'shop', sessionId: 'cs_y', kind: 'capture', state: 'succeeded', provider: 'test', amount: 4000n, currency: 'USD', idempotencyKey: 'k-ok-1' },
  });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await gateway?.close();
});

describe('GET /admin/merchants/{id}/overview', () => {
  it("counts today's orders and revenue per currency, 14 days of orders, the failed payment and the failing endpoint", async () => {
    const reply = await admin(op.shop, '/merchants/shop/overview');
    expect(reply.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(reply.body.today.currencies).toEqual([{ currency: 'USD', orders: 2, revenue: expect.any(Number) }]);
    expect(reply.body.today.currencies[0].revenue).toBeGreaterThanOrEqual(120);
    expect(reply.body.orders_by_day).toHaveLength(14);
    expect(reply.body.orders_by_day.at(-1)).toEqual({ date: today, orders: 2 });
    expect(reply.body.orders_by_day.slice(0, 13).every((d: { orders: number }) => d.orders === 0)).toBe(true);
    expect(reply.body.payments_needing_attention).toEqual({ count: 1, items: [expect.objectContaining({ id: 'pop_failed1', state: 'failed', amount: 40, currency: 'USD', last_error: 'card_declined' })] });
    expect(reply.body.failing_webhook_endpoints.map((e: { url: string }) => e.url)).toEqual([`${receiver.url}/hooks`]);
    expect(reply.body.imports_running).toEqual([]);
  });

  it('is refused for a merchant the credential does not serve (403) and 404 for one that does not exist', async () => {
    expect((await admin(op.shop, '/merchants/rival/overview')).status).toBe(403);
    const all = (await gateway.services.admin.operators.create({ name: 'all', access: 'read', allMerchants: true })).token;
    expect((await admin(all, '/merchants/nobody/overview')).status).toBe(404);
  });
});

describe('webhook endpoint health', () => {
  it('lists each endpoint with its attempts, success rate, latency and last failure over 24 h', async () => {
    const list = await admin(op.shop, '/merchants/shop/webhook_endpoints');
    expect(list.status).toBe(200);
    const health = list.body.items[0].health;
    expect(health).toMatchObject({ window_hours: 24, succeeded: 0, success_rate: 0, failing: true, last_failure: { response_status: 503 } });
    expect(health.attempts).toBeGreaterThanOrEqual(1);
    expect(health.mean_latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('shows one endpoint with its health, and recovers once its receiver answers 2xx', async () => {
    receiver.reply = 200;
    const deliveries = await admin(op.shop, `/webhook_endpoints/${endpointId}/deliveries`);
    expect(deliveries.body.items[0].webhook_endpoint_url).toBe(`${receiver.url}/hooks`);
    await gateway.services.admin.deliveries.requeue(deliveries.body.items[0].id);
    await expect.poll(async () => (await admin(op.shop, `/webhook_endpoints/${endpointId}`)).body.health.failing, { timeout: 20_000 }).toBe(false);
    const shown = await admin(op.shop, `/webhook_endpoints/${endpointId}`);
    expect(shown.body).toMatchObject({ id: endpointId, url: `${receiver.url}/hooks`, health: { last_failure: { response_status: 503 } } });
    expect(shown.body.health.success_rate).toBeGreaterThan(0);
  });
});
