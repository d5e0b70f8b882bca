/** Rate limits per key: a minute and a day window, in process and shared through Redis. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product } from './support/fixtures.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [product({ id: 'p-1' })]);
});
afterAll(() => gateway?.close());

const get = (url: string, key: string) => call(`${url}/acp/products/p-1`, { headers: { 'X-ACP-API-Key': key } });

async function burst(urls: string[], key: string, count: number) {
  const replies = [];
  for (let i = 0; i < count; i++) replies.push(await get(urls[i % urls.length]!, key));
  return replies;
}

describe('rate limits', () => {
  it('lets a sandbox key make 60 requests a minute, refuses the 61st with 429 and says when to retry', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop'], tier: 'sandbox' });
    const replies = await burst([gateway.url], key, 61);
    expect(replies.slice(0, 60).every((r) => r.status === 200)).toBe(true);
    const first = replies[0]!;
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(replies[59]!.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    const now = Date.now() / 1000;
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 60);

    const refused = replies[60]!;
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { type: 'rate_limit_exceeded', message: expect.stringMatching(/per minute/), retry_after: expect.any(Number) } });
    expect(refused.body.error.retry_after).toBeGreaterThan(0);
    expect(refused.body.error.retry_after).toBeLessThanOrEqual(60);
    expect(refused.headers.get('retry-after')).toBe(String(refused.body.error.retry_after));
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('counts each key on its own', async () => {
    const busy = await gateway.createKey({ merchantIds: ['shop'], tier: 'enterprise', rpm: 2, rpd: 100 });
    const idle = await gateway.createKey({ merchantIds: ['shop'], tier: 'enterprise', rpm: 2, rpd: 100 });
    expect((await burst([gateway.url], busy, 3)).map((r) => r.status)).toEqual([200, 200, 429]);
    expect((await get(gateway.url, idle)).status).toBe(200);
  });

  it('refuses past the day window and says so', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop'], tier: 'enterprise', rpm: 100, rpd: 3 });
    const replies = await burst([gateway.url], key, 4);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(replies[3]!.body.error.message).toMatch(/Daily limit of 3/);
    expect(replies[3]!.body.error.retry_after).toBeGreaterThan(60);
  });

  it('gives production keys 600 a minute', async () => {
    const created = await gateway.services.keys.create({ merchantIds: ['shop'], env: 'development', scopes: ['*'], tier: 'production' });
    expect((await get(gateway.url, created.key)).headers.get('x-ratelimit-limit')).toBe('600');
  });
});

describe.skipIf(!process.env.REDIS_URL)('rate limits shared through Redis (REDIS_URL)', () => {
  it('two gateway replicas together refuse the 61st sandbox request of a minute', async () => {
    const env = { REDIS_URL: process.env.REDIS_URL! };
    const one = await startTestGateway({ env, db: gateway.db });
    const two = await startTestGateway({ env, db: gateway.db });
    try {
      const key = await gateway.createKey({ merchantIds: ['shop'], tier: 'sandbox' });
      const replies = await burst([one.url, two.url], key, 61);
      expect(replies.slice(0, 60).map((r) => r.status)).toEqual(Array(60).fill(200));
      expect(replies[60]!.status).toBe(429);
      expect(replies[59]!.headers.get('x-ratelimit-remaining')).toBe('0');
    } finally {
      await one.close();
      await two.close();
    }
  });
});
