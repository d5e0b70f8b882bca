/**
 * UCP order webhooks end to end, for each release: a checkout completed over HTTP whose session
 * is a UCP session (protocol_state set with SQL, as UCP checkout will set it), then the order
 * fulfilled — each event delivered through the outbox to the platform's webhook URL (a real HTTP
 * receiver on 127.0.0.1), verified with the JWK fetched from the gateway's `/.well-known/ucp`
 * (@commerce-gateway/webhooks), and its body validated against the release's official order.json.
 */
import { verifyUcpDetachedJws, verifyUcpRequest, type UcpJwk } from '@commerce-gateway/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeProblem, ucpOrderValidator } from '../src/ucp/ucp-schemas.js';
import type { UcpVersion } from '../src/ucp/ucp-version.js';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import type { CheckoutCalls } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { placedOrder as placeUcpOrder, ucpShop, ucpWorker } from './support/ucp-orders.js';
import { startReceiver, type Receiver, type ReceivedRequest } from './support/webhook-receiver.js';

let gateway: TestGateway;
let receiver: Receiver;
const workers: DeliveryWorker[] = [];

beforeAll(async () => {
  gateway = await startTestGateway({ TAX_RATES: 'US-CA=0.1' });
  await gateway.services.ucpSigningKeys.load(); // as `serve` does: the persisted keys, published and signing
  receiver = await startReceiver();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await gateway.db.prisma.webhookDelivery.updateMany({ where: { state: 'pending' }, data: { state: 'abandoned' } });
  receiver.reply = 200;
  receiver.replies = [];
  receiver.requests.length = 0;
});
afterAll(async () => {
  await receiver?.close();
  await gateway?.close();
});

function startWorker(options: { allowPrivateTargets?: boolean } = {}): DeliveryWorker {
  const worker = ucpWorker(gateway, options);
  workers.push(worker);
  return worker;
}

const shop = () => ucpShop(gateway);
const placedOrder = (calls: CheckoutCalls, ucp?: { version: UcpVersion; webhookUrl?: string }) => placeUcpOrder(gateway, calls, ucp);

async function publishedKeys(): Promise<UcpJwk[]> {
  const response = await fetch(`${gateway.url}/.well-known/ucp`);
  const profile = (await response.json()) as { signing_keys?: UcpJwk[] };
  expect(profile.signing_keys?.length).toBeGreaterThan(0);
  return profile.signing_keys!;
}

/** Verifies one delivery as the platform would, with the keys of the business's profile; returns the order. */
function verified(version: UcpVersion, request: ReceivedRequest, keys: UcpJwk[]): Record<string, unknown> {
  expect(request.headers['ucp-agent']).toBe(`profile="${gateway.url}/.well-known/ucp"`);
  if (version === '2026-01-11') return verifyUcpDetachedJws(request.raw, request.headers['request-signature'] as string, keys);
  const url = `${receiver.url}${request.path}`;
  return verifyUcpRequest({ method: request.method, url, headers: request.headers as Record<string, string>, body: request.raw }, keys);
}

describe.each([['2026-04-08'], ['2026-01-11']] as [UcpVersion][])('UCP %s order webhooks', (version) => {
  const validate = ucpOrderValidator(version);

  it('sends the placed order and the shipped order to the platform, signed with a published key', async () => {
    const { merchantId, calls } = await shop();
    const path = `/platform/${version}/orders`;
    const orderId = await placedOrder(calls, { version, webhookUrl: `${receiver.url}${path}` });
    await gateway.services.orders.fulfil(merchantId, orderId, { carrier: 'UPS', tracking_number: '1Z999AA10123456784', tracking_url: 'https://ups.example/track/1Z999AA10123456784' });
    startWorker();
    const requests = (await receiver.waitFor(2)).filter((r) => r.path === path);
    expect(requests).toHaveLength(2);
    const keys = await publishedKeys();
    const [placed, shipped] = requests.map((request) => verified(version, request, keys)) as [Record<string, any>, Record<string, any>];
    for (const order of [placed, shipped]) {
      expect(validate(order), describeProblem(validate)).toBe(true);
      expect(order).toMatchObject({ id: orderId, ucp: { version } });
    }
    expect(placed.line_items[0]).toMatchObject({ quantity: { total: 2, fulfilled: 0 }, status: 'processing' });
    expect(shipped.line_items[0]).toMatchObject({ quantity: { total: 2, fulfilled: 2 }, status: 'fulfilled' });
    expect(shipped.fulfillment.events).toEqual([expect.objectContaining({ type: 'shipped', tracking_number: '1Z999AA10123456784', carrier: 'UPS' })]);
    const events = await gateway.db.prisma.webhookEvent.findMany({ where: { merchantId }, orderBy: { createdAt: 'asc' } });
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual(events.map((e) => e.id));
    if (version === '2026-01-11') expect(placed).toMatchObject({ event_id: events[0]!.id, created_time: expect.any(String) });
    else expect(requests[0]!.headers['signature-input']).toMatch(/"content-digest"/);
  });

  it('retries a failed delivery with the same event id, re-signed', async () => {
    const { calls } = await shop();
    const path = `/platform/${version}/flaky`;
    await placedOrder(calls, { version, webhookUrl: `${receiver.url}${path}` });
    receiver.replies = [500, 200];
    startWorker();
    const [first, second] = await receiver.waitFor(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    verified(version, second!, await publishedKeys());
  });

  it('refuses a private webhook URL when private targets are not allowed, without retrying', async () => {
    const { merchantId, calls } = await shop();
    await placedOrder(calls, { version, webhookUrl: `${receiver.url}/platform/private` });
    const worker = startWorker({ allowPrivateTargets: false });
    await worker.runOnce();
    await worker.stop();
    const delivery = await gateway.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint: { merchantId, protocol: 'ucp' } }, include: { attempts: true } });
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts[0]!.error).toMatch(/^endpoint URL /);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('which orders go to platforms', () => {
  it('an order not placed through UCP, or of a UCP session without a webhook URL, has no UCP delivery', async () => {
    const { merchantId, calls } = await shop();
    await placedOrder(calls);
    await placedOrder(calls, { version: '2026-04-08' });
    expect(await gateway.db.prisma.webhookEndpoint.count({ where: { merchantId, protocol: 'ucp' } })).toBe(0);
  });

  it('one endpoint row per platform URL and version, shared by the orders placed through it', async () => {
    const { merchantId, calls } = await shop();
    const url = `${receiver.url}/platform/shared`;
    await placedOrder(calls, { version: '2026-04-08', webhookUrl: url });
    await placedOrder(calls, { version: '2026-04-08', webhookUrl: url });
    await placedOrder(calls, { version: '2026-01-11', webhookUrl: url });
    const rows = await gateway.db.prisma.webhookEndpoint.findMany({ where: { merchantId, protocol: 'ucp' }, include: { deliveries: true }, orderBy: { protocolVersion: 'asc' } });
    expect(rows.map((r) => [r.url, r.protocolVersion, r.deliveries.length])).toEqual([[url, '2026-01-11', 1], [url, '2026-04-08', 2]]);
  });

  it('merchant-wide events never go to a platform endpoint', async () => {
    const { merchantId, calls } = await shop();
    const store = new WebhookStore(gateway.db);
    await placedOrder(calls, { version: '2026-04-08', webhookUrl: `${receiver.url}/platform/only-its-orders` });
    await store.createEndpoint(merchantId, `${receiver.url}/ours`, 'whsec_ours_only_its_orders_0123');
    await placedOrder(calls);
    const ucpRow = await gateway.db.prisma.webhookEndpoint.findFirstOrThrow({ where: { merchantId, protocol: 'ucp' }, include: { deliveries: true } });
    expect(ucpRow.deliveries).toHaveLength(1);
  });
});
