/**
 * Completion writes the order, the status and the event before it takes stock (so that stock row
 * locks are held briefly): a take that fails must still undo all of it, and an idempotent
 * completion refused for stock must be stored as that refusal, not left "in flight".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let key: string;
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  call(`${gateway.url}${path}`, { method: 'POST', headers: { 'X-ACP-API-Key': key, ...headers }, json });

beforeAll(async () => {
  gateway = await startTestGateway();
  key = await gateway.createKey({ merchantIds: ['shop'] });
  await gateway.importProducts('shop', [stocked('plenty', [{ quantity: 50 }]), stocked('scarce', [{ quantity: 1 }])]);
});
afterAll(() => gateway?.close());

describe('POST /checkout_sessions/{id}/complete when a later line is short of stock', () => {
  it('writes nothing: no order, no event, no stock taken, the session still open', async () => {
    const created = await post('/checkout_sessions', { items: [{ product_id: 'plenty', quantity: 2 }, { product_id: 'scarce', quantity: 2 }], shipping_address: SF_ADDRESS });
    expect(created.status).toBe(201);
    const id = created.body.checkout_session.id as string;
    const refused = await post(`/checkout_sessions/${id}/complete`, undefined);
    expect(refused.status).toBe(400);
    expect(refused.body.param).toBe('line_items[1].quantity');
    const prisma = gateway.db.prisma;
    expect(await prisma.order.count({ where: { checkoutSessionId: id } })).toBe(0);
    expect(await prisma.webhookEvent.count({ where: { merchantId: 'shop' } })).toBe(0);
    expect((await prisma.checkoutSession.findUnique({ where: { id } }))?.status).toBe('open');
    expect((await prisma.variant.findFirst({ where: { merchantId: 'shop', productId: 'plenty' } }))?.quantity).toBe(50);
    expect((await call(`${gateway.url}/acp/products/plenty`, { headers: { 'X-ACP-API-Key': key } })).body.availability.quantity).toBe(50);
  });

  it('stores the refusal under its Idempotency-Key: the retry replays it', async () => {
    const created = await post('/checkout_sessions', { items: [{ product_id: 'plenty', quantity: 1 }, { product_id: 'scarce', quantity: 5 }], shipping_address: SF_ADDRESS });
    const id = created.body.checkout_session.id as string;
    const headers = { 'Idempotency-Key': `complete-${id}` };
    const first = await post(`/checkout_sessions/${id}/complete`, undefined, headers);
    expect(first.status).toBe(400);
    const again = await post(`/checkout_sessions/${id}/complete`, undefined, headers);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});
