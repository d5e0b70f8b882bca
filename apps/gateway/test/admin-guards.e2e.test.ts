/**
 * The admin API's guards on a production gateway: a webhook endpoint URL the delivery worker
 * would refuse (plain http, a loopback, private, link-local or metadata address) is refused when
 * the endpoint is added, 400 `param: url`, nothing created; and an operator credential past its
 * per-minute budget gets 429 with Retry-After and X-RateLimit-*, in the admin error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIER_LIMITS } from '../src/auth/tiers.js';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
const op = { full: '', other: '' };

const admin = (token: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply> =>
  call(`${gateway.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  gateway = await startTestGateway({ GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'https://gateway.shop.example' });
  await gateway.services.merchants.create('shop', 'Shop');
  op.full = (await gateway.services.admin.operators.create({ name: 'ops', access: 'full', allMerchants: true })).token;
  op.other = (await gateway.services.admin.operators.create({ name: 'auditor', access: 'read', allMerchants: true })).token;
}, 120_000);
afterAll(() => gateway?.close());

describe('webhook endpoint URL', () => {
  it.each([
    ['http://hooks.shop.example/in', /https in production/],
    ['https://127.0.0.1/hooks', /loopback/],
    ['https://localhost:8443/hooks', /loopback/],
    ['https://[::1]/hooks', /loopback/],
    ['https://10.0.0.12/hooks', /private/],
    ['https://192.168.1.5/hooks', /private/],
    ['https://169.254.169.254/latest/meta-data', /cloud-metadata/],
  ])('refuses %s with 400, param url, and creates nothing', async (url, reason) => {
    const refused = await admin(op.full, '/merchants/shop/webhook_endpoints', { method: 'POST', json: { url } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: { type: 'invalid_request', message: expect.stringMatching(reason), param: 'url', request_id: expect.any(String) } });
    expect((await admin(op.full, '/merchants/shop/webhook_endpoints')).body.items).toEqual([]);
    await gateway.services.admin.audit.settled();
    expect((await admin(op.full, '/audit?limit=1')).body.items[0]).toMatchObject({ operation: 'createWebhookEndpoint', outcome: 'refused', status: 400 });
  });

  it('adds an endpoint at a public https address', async () => {
    const added = await admin(op.full, '/merchants/shop/webhook_endpoints', { method: 'POST', json: { url: 'https://93.184.216.34/hooks' } });
    expect(added.status).toBe(201);
    expect(added.body.webhook_endpoint).toMatchObject({ url: 'https://93.184.216.34/hooks', merchant_id: 'shop' });
  });
});

describe('rate limit', () => {
  it('refuses a credential past its per-minute budget with 429, Retry-After and X-RateLimit-*, in the admin error shape', async () => {
    const budget = TIER_LIMITS.production.perMinute;
    const first = await admin(op.other, '/merchants?limit=1');
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(budget));
    expect(first.headers.get('x-ratelimit-remaining')).toBe(String(budget - 1));
    for (let sent = 1; sent < budget; sent += 20) {
      const replies = await Promise.all(Array.from({ length: Math.min(20, budget - sent) }, () => admin(op.other, '/merchants?limit=1')));
      expect(replies.every((r) => r.status === 200)).toBe(true);
    }
    const refused = await admin(op.other, '/merchants?limit=1');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { type: 'rate_limit_exceeded', message: expect.stringMatching(/per minute/), retry_after: expect.any(Number), request_id: refused.headers.get('request-id') } });
    expect(refused.body.error.retry_after).toBeGreaterThan(0);
    expect(refused.body.error.retry_after).toBeLessThanOrEqual(60);
    expect(refused.headers.get('retry-after')).toBe(String(refused.body.error.retry_after));
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(budget));
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    // A write past the budget is refused too, and audited; another credential is counted on its own.
    expect((await admin(op.other, '/merchants', { method: 'POST', json: { id: 'late' } })).status).toBe(429);
    await gateway.services.admin.audit.settled();
    expect((await admin(op.full, '/audit?limit=1')).body.items[0]).toMatchObject({ operation: 'createMerchant', outcome: 'refused', status: 429, detail: expect.stringMatching(/^rate_limit_exceeded/) });
  }, 60_000);
});
