/** A key allowed one request a minute: the second call meets a real 429. */
import { describe, expect, it } from 'vitest';
import { CommerceGateway, RateLimitError, type ResponseEvent } from '../src/index.js';
import { gatewayUnderTest } from './support/gateway-under-test.js';

const { url, keys } = gatewayUnderTest();
const events: ResponseEvent[] = [];
const gw = new CommerceGateway({ apiKey: keys.limited, baseUrl: url, onResponse: (event) => events.push(event) });

describe('429 rate_limit_exceeded', () => {
  it('raises RateLimitError with retryAfter when retries are off', async () => {
    await gw.products.search({ page_size: 1 });
    const error = await gw.products.search({ page_size: 1 }, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', requestId: expect.stringMatching(/^req_/) });
    const { retryAfter } = error as RateLimitError;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number((error as RateLimitError).headers?.get('retry-after'))).toBe(retryAfter);
  });

  it('is retried after Retry-After, and then succeeds', async () => {
    events.length = 0;
    const started = Date.now();
    const page = await gw.products.search({ page_size: 1 });
    const waited = Date.now() - started;
    expect(page.items).toHaveLength(1);
    expect(events.map((e) => [e.status, e.attempt])).toEqual([[429, 0], [200, 1]]);
    const retryAfter = Number(events[0]!.headers.get('retry-after'));
    expect(waited).toBeGreaterThanOrEqual(retryAfter * 1000 - 50);
  }, 90_000);
});
