/**
 * An agent plays the whole ACP 2026-04-17 flow over real HTTP: discover → create → add the
 * address → choose shipping → complete with a test token → the order webhook (order_create,
 * Merchant-Signature) received by the agent's endpoint and verified with
 * @commerce-gateway/webhooks → cancel a second session → the merchant's product feed exported
 * and pushed to a local Feed API that implements openapi.feed.yaml. Every answer of the profile
 * is validated against the official schemas (test/support/acp.ts), and so is the webhook.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyAcp } from '@commerce-gateway/webhooks';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedApiClient } from '../src/catalog/feed/feed-api-client.js';
import { exportFeed } from '../src/catalog/feed/feed-export.js';
import { pushFeed } from '../src/catalog/feed/feed-push.js';
import { FeedStore } from '../src/catalog/feed/feed-store.js';
import { startDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { acpAgent, createBody, payWith, SF, type AcpAgent } from './support/acp.js';
import { acpWebhookEventValidator, feedSchemaValidator } from './support/acp-schemas.js';
import { stocked } from './support/checkout.js';
import { startFeedService, type FeedService } from './support/feed-service.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const AGENT_SECRET = 'whsec_issued_by_the_agent_platform';
const STOREFRONT = 'https://{merchant_id}.shops.example';
let gateway: TestGateway;
let agent: AcpAgent;
let receiver: Receiver;
let worker: DeliveryWorker;
let feeds: FeedService;

beforeAll(async () => {
  gateway = await startTestGateway({ STOREFRONT_URL: STOREFRONT });
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 10.67, quantity: 20 }]), stocked('lamp', [{ sku: 'lamp-brass', price: 30, quantity: 5 }])]);
  agent = acpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
  // The agent platform's order-events endpoint, registered for the merchant as `webhooks add-endpoint --protocol acp` does.
  receiver = await startReceiver();
  await new WebhookStore(gateway.db).createEndpoint('shop', `${receiver.url}/agentic_checkout/webhooks/order_events`, AGENT_SECRET, 'acp');
  worker = startDeliveryWorker(gateway.db, { webhookAllowPrivateTargets: true, storefrontUrl: STOREFRONT }, pino({ level: 'silent' }), { pollIntervalMs: 20 });
  feeds = await startFeedService();
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await feeds?.close();
  await gateway?.close();
});

describe('an agent checks out through the ACP profile', () => {
  it('discovers, creates, adds the address, chooses shipping, pays with a test token; cancels another session', async () => {
    const discovery = await agent.discover();
    expect(discovery.status).toBe(200);
    expect(discovery.body.api_base_url).toBe(`${gateway.url}/acp`);
    const base = discovery.body.api_base_url as string;
    expect(base.startsWith(gateway.url)).toBe(true);

    const created = await agent.create(createBody(['chair-oak', 'chair-oak', 'lamp-brass']));
    expect(created.status).toBe(201);
    const session = created.body;
    expect(session.status).toBe('not_ready_for_payment');
    expect(session.line_items.map((l: { item: { id: string }; quantity: number }) => [l.item.id, l.quantity])).toEqual([['chair-oak', 2], ['lamp-brass', 1]]);
    expect(session.messages.map((m: { code: string; param: string }) => [m.code, m.param])).toEqual([
      ['missing', '$.fulfillment_details.address'],
      ['missing', '$.selected_fulfillment_options'],
    ]);

    const addressed = await agent.update(session.id, { fulfillment_details: { name: 'Ada Lovelace', email: 'ada@example.com', address: SF } });
    expect(addressed.status).toBe(200);
    expect(addressed.body.status).toBe('not_ready_for_payment');
    const option = addressed.body.fulfillment_options[0];
    expect(option).toMatchObject({ type: 'shipping', id: 'standard' });

    const shipped = await agent.update(session.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: option.id, item_ids: ['chair-oak', 'lamp-brass'] }] });
    expect(shipped.body.status).toBe('ready_for_payment');
    expect(shipped.body.messages).toEqual([]);
    // 2 × 10.67 + 30 = 51.34 (free shipping from 50), tax 7.25% = 3.72
    expect(shipped.body.totals).toEqual([
      { type: 'items_base_amount', display_text: 'Item(s) total', amount: 5134 },
      { type: 'subtotal', display_text: 'Subtotal', amount: 5134 },
      { type: 'fulfillment', display_text: 'Shipping', amount: 0 },
      { type: 'tax', display_text: 'Tax', amount: 372 },
      { type: 'total', display_text: 'Total', amount: 5506 },
    ]);

    const completed = await agent.complete(session.id, payWith('spt_test_approve', { buyer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } }));
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.status).toBe('completed');
    const order = completed.body.order;
    expect(order).toMatchObject({ id: expect.stringMatching(/^ord_/), checkout_session_id: session.id, permalink_url: `https://shop.shops.example/orders/${order.id}` });

    // The order webhook reaches the agent's endpoint, signed; the agent verifies it with our package.
    const [delivery] = await receiver.waitFor(1);
    expect(delivery!.path).toBe('/agentic_checkout/webhooks/order_events');
    const event = verifyAcp(delivery!.raw, delivery!.headers['merchant-signature'], AGENT_SECRET);
    const valid = acpWebhookEventValidator();
    expect(valid(event), JSON.stringify(valid.errors)).toBe(true);
    expect(event).toMatchObject({ type: 'order_create', data: { type: 'order', id: order.id, checkout_session_id: session.id, permalink_url: order.permalink_url, status: 'created' } });
    expect(event.data.totals).toContainEqual({ type: 'total', display_text: 'Total', amount: 5506 });
    expect(() => verifyAcp(delivery!.raw, delivery!.headers['merchant-signature'], 'whsec_someone_else')).toThrow();

    const second = await agent.create(createBody(['lamp-brass']));
    const canceled = await agent.cancel(second.body.id);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    expect(receiver.requests).toHaveLength(1); // a canceled session orders nothing, so no webhook

    // The merchant's catalog reaches agents as a product feed: exported, then pushed to the agent's Feed API.
    const store = new FeedStore(gateway.db);
    const exported = await exportFeed(store, { merchantId: 'shop', outDir: await mkdtemp(join(tmpdir(), 'gw-agent-feed-')), storefrontUrl: STOREFRONT, targetCountry: 'US' });
    expect(exported).toMatchObject({ products: 2, variants: 2 });
    const product = feedSchemaValidator('Product');
    for (const line of readFileSync(exported.productsPath, 'utf8').trimEnd().split('\n')) expect(product(JSON.parse(line)), JSON.stringify(product.errors)).toBe(true);
    const pushed = await pushFeed(store, new FeedApiClient({ baseUrl: feeds.url, token: feeds.token, allowPrivateTargets: true }), { merchantId: 'shop', targetUrl: feeds.url, targetCountry: 'US', storefrontUrl: STOREFRONT });
    expect(pushed).toMatchObject({ created: true, sent: 2 });
    expect(feeds.invalid).toEqual([]);
    const feed = feeds.feeds.get(pushed.feedId)!;
    expect([...feed.products.keys()].sort()).toEqual(['chair', 'lamp']);
    expect(JSON.stringify(feed.products.get('chair'))).toContain('"url":"https://shop.shops.example/products/chair?variant=chair-oak"');
  });
});
