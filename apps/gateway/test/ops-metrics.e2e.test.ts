/** GET /metrics on a real gateway: requests, refusals, replays, searches and the outbox lag counted, nothing leaked. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxStore } from '../src/webhooks/outbox-store.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { call } from './support/http.js';
import type { TestDatabase } from './support/test-database.js';
import { openOpsShop, startOpsGateway, type OpsGateway, type OpsShop } from './support/ops-gateway.js';

let db: TestDatabase;
let gateway: OpsGateway;
let shop: OpsShop | undefined;

beforeAll(async () => {
  shop = await openOpsShop();
  ({ db, gateway } = shop);
});
afterAll(() => shop?.close());

describe('GET /metrics', () => {
  const scrape = async (url = gateway.url) => {
    const reply = await fetch(`${url}/metrics`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return reply.text();
  };
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('counts requests and their latency by operation and status', async () => {
    const { key } = await gateway.key();
    const before = await scrape();
    for (let i = 0; i < 3; i++) await call(`${gateway.url}/acp/products/chair`, { headers: { "X-ACP-API-Key": key } });
    await call(`${gateway.url}/acp/products/nope`, { headers: { 'X-ACP-API-Key': key } });
    await call(`${gateway.url}/no/such/path`);
    const after = await scrape();
    const ok = 'gateway_http_requests_total{operation="getProduct",method="GET",status="200"}';
    expect((value(after, ok) ?? 0) - (value(before, ok) ?? 0)).toBe(3);
    expect(value(after, 'gateway_http_requests_total{operation="getProduct",method="GET",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'gateway_http_requests_total{operation="none",method="GET",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'gateway_http_request_duration_seconds_count{operation="getProduct",status="200"}')).toBeGreaterThanOrEqual(3);
    expect(after).toContain('gateway_http_request_duration_seconds_bucket{le="0.05",operation="getProduct",status="200"}');
  });

  it('counts rate-limit refusals and idempotent replays', async () => {
    const { key } = await gateway.key({ rpm: 2 });
    for (let i = 0; i < 4; i++) await call(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key } });
    const { key: writer } = await gateway.key();
    const emit = () => call(`${gateway.url}/webhooks/emit`, { method: 'POST', headers: { 'X-ACP-API-Key': writer, 'Idempotency-Key': 'ops-1' }, json: { event_type: 'order.created' } });
    expect((await emit()).status).toBe(200);
    const replay = await emit();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const text = await scrape();
    expect(value(text, 'gateway_rate_limit_refusals_total{window="minute"}')).toBeGreaterThanOrEqual(2);
    expect(value(text, 'gateway_idempotent_replays_total')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE gateway_webhook_attempts_total counter');
    expect(text).toContain('# TYPE gateway_search_duration_seconds histogram');
  });

  it('times catalog searches with q by ranking mode', async () => {
    const { key } = await gateway.key();
    await call(`${gateway.url}/acp/products?q=chair`, { headers: { 'X-ACP-API-Key': key } });
    await call(`${gateway.url}/acp/products`, { headers: { 'X-ACP-API-Key': key } }); // no q: not a search
    const text = await scrape();
    const searches = ['hybrid', 'keyword'].reduce((sum, mode) => sum + (value(text, `gateway_search_duration_seconds_count{mode="${mode}"}`) ?? 0), 0);
    expect(searches).toBeGreaterThanOrEqual(1);
  });

  it('reads the outbox lag on each scrape: deliveries due, and how long the oldest has waited', async () => {
    const store = new WebhookStore(db);
    const endpoint = await store.createEndpoint('ops-shop', 'http://127.0.0.1:9/hooks', 'whsec_test');
    await db.transaction((tx) => new OutboxStore().enqueue(tx, { merchantId: 'ops-shop', type: 'order.created', object: {} }));
    await db.prisma.webhookDelivery.updateMany({ where: { endpointId: endpoint.id }, data: { nextAttemptAt: new Date(Date.now() - 90_000) } });
    try {
      const text = await scrape();
      expect(value(text, 'gateway_outbox_due_deliveries')).toBe(1);
      expect(value(text, 'gateway_outbox_lag_seconds')).toBeGreaterThanOrEqual(90);
      expect(value(text, 'gateway_outbox_lag_seconds')).toBeLessThan(200);
    } finally {
      await db.prisma.webhookDelivery.deleteMany({ where: { endpointId: endpoint.id } });
      await db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
    }
    expect(value(await scrape(), 'gateway_outbox_due_deliveries')).toBe(0);
  });

  it('leaks no merchant, key or path parameter', async () => {
    const { key } = await gateway.key();
    await call(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key } });
    const text = await scrape();
    expect(text).not.toContain('ops-shop');
    expect(text).not.toContain('chair');
    expect(text).not.toContain(key);
    expect(text).not.toContain('sk_');
  });

  it('keeps each app\'s metrics its own (several gateways in one process)', async () => {
    const other = await startOpsGateway(db);
    try {
      const { key } = await other.key();
      await call(`${other.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key } });
      await call(`${other.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key } });
      expect(value(await scrape(other.url), 'gateway_http_requests_total{operation="getProduct",method="GET",status="200"}')).toBe(2);
    } finally {
      await other.close();
    }
  });
});
