/**
 * The bench of the admin API's end-to-end tests (admin-api-*.e2e.test.ts): a real gateway on a real
 * database with merchants `shop` (selling `chair`) and `rival` (selling `stool`), three operator
 * credentials made by the service `gateway operators create` runs — full on every merchant,
 * read-only on every merchant, full on `shop` only — and, with `deliveries: true`, a local webhook
 * receiver and a delivery worker. `useAdminApi()` registers the file's hooks and returns the
 * helpers: admin calls, a placed order, the newest audit entries, the admin error shape's check.
 */
import { CommerceGateway } from '@commerce-gateway/sdk';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { SF_ADDRESS, stocked } from './checkout.js';
import { call, type Reply } from './http.js';
import { startTestGateway, type TestGateway } from './test-gateway.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

type Init = RequestInit & { json?: unknown };

export function expectAdminError(reply: Reply, status: number, type: string): void {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ error: expect.objectContaining({ type, message: expect.any(String), request_id: expect.any(String) }) });
  expect(reply.body.error.request_id).toBe(reply.headers.get('request-id'));
}

export function useAdminApi({ deliveries = false }: { deliveries?: boolean } = {}) {
  let gateway: TestGateway;
  let receiver: Receiver;
  let worker: DeliveryWorker;
  /** Credentials: full on every merchant, read-only on every merchant, full on `shop` only. */
  const op = { root: '', reader: '', shopOnly: '', shopOnlyId: '' };

  const admin = (token: string, path: string, init: Init = {}): Promise<Reply> =>
    call(`${gateway.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) } });
  const post = (token: string, path: string, json?: unknown) => admin(token, path, { method: 'POST', ...(json === undefined ? {} : { json }) });

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
    if (deliveries) {
      receiver = await startReceiver();
      worker = startDeliveryWorker(gateway.db, { webhookAllowPrivateTargets: true }, pino({ level: 'silent' }), { pollIntervalMs: 20 });
    }
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await gateway?.close();
  });

  return {
    /** The gateway (set once beforeAll ran). */
    get gateway() {
      return gateway;
    },
    /** The local webhook receiver (with `deliveries: true`, set once beforeAll ran). */
    get receiver() {
      return receiver;
    },
    op,
    admin,
    post,
    /** Places an order for `merchantId` through the merchant API; its order.created event goes to the merchant's endpoints. */
    async placeOrder(merchantId: string, product: string): Promise<string> {
      const gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: [merchantId] }), baseUrl: gateway.url, maxRetries: 0 });
      const session = await gw.checkoutSessions.create({ items: [{ product_id: product }], shipping_address: SF_ADDRESS, customer: { email: 'ada@example.com' } });
      return (await gw.checkoutSessions.complete(session.id)).order!.id;
    },
    /** The newest audit entries, as the root credential reads them. */
    async latestAudit(limit = 5): Promise<Record<string, unknown>[]> {
      const reply = await admin(op.root, `/audit?limit=${limit}`);
      expect(reply.status).toBe(200);
      return reply.body.items;
    },
  };
}
