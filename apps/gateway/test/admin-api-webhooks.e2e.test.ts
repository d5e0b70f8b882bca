/**
 * The admin API end to end on webhooks and orders (test/support/admin-api.ts with a local webhook
 * receiver and a delivery worker): endpoints added, disabled, enabled, rotated and removed; an
 * order's deliveries with their attempts, per endpoint, per event and on the order; a resend (a new
 * attempt of the same event), refused for another merchant's delivery and for read-only, each
 * refusal audited; an order fulfilled and refunded through the orders service.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAdminError, useAdminApi } from './support/admin-api.js';
import type { Reply } from './support/http.js';
import type { Receiver } from './support/webhook-receiver.js';

const bench = useAdminApi({ deliveries: true });
const { op, admin, post, placeOrder, latestAudit } = bench;
let receiver: Receiver;
beforeAll(() => void ({ receiver } = bench));

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
