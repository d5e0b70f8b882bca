/**
 * The outbound client against a real server on loopback: the guard before every attempt, the
 * body read as asked and bounded, one deadline over DNS and answer, retries only when asked —
 * of what may succeed later, after what Retry-After asks.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryError, UnsafeTargetError } from './delivery-errors.js';
import { exponentialBackoff, OutboundClient, retryableStatus, retryAfterMs, type RetryOptions } from './outbound-client.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-05-01T00:00:00Z');
  it.each([
    ['seconds', '3', 3000],
    ['zero seconds', '0', 0],
    ['an HTTP date 90 s ahead', 'Fri, 01 May 2026 00:01:30 GMT', 90_000],
    ['an HTTP date in the past', 'Thu, 30 Apr 2026 23:00:00 GMT', 0],
    ['an obsolete RFC 850 date', 'Friday, 01-May-26 00:00:05 GMT', 5_000],
  ])('reads %s', (_, value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });

  it.each([null, undefined, '', 'soon', '-5', '2026-05-01T00:01:00Z'])('ignores %j', (value) => {
    expect(retryAfterMs(value, now)).toBeUndefined();
  });
});

describe('retryableStatus and exponentialBackoff', () => {
  it.each([
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [302, false],
  ])('%i is retryable: %s', (status, expected) => {
    expect(retryableStatus(status)).toBe(expected);
  });

  it('doubles its wait up to the cap, between half and all of it', () => {
    const most = exponentialBackoff({ firstMs: 100, maxMs: 1_000, random: () => 1 });
    expect([1, 2, 3, 4, 5].map(most)).toEqual([100, 200, 400, 800, 1_000]);
    expect(exponentialBackoff({ firstMs: 100, maxMs: 1_000, random: () => 0 })(3)).toBe(200);
  });
});

let server: Server;
let base: string;
/** Scripted answers, in order; a plain 200 "ok" when none is left. */
const script: ((res: ServerResponse) => void)[] = [];
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => (script.shift() ?? ((r: ServerResponse) => r.writeHead(200).end('ok')))(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script.length = 0;
  hits = 0;
});

const open = new OutboundClient({ allowPrivate: true });
const get = { method: 'GET', timeoutMs: 2_000, maxResponseBytes: 1024 };
const quick = (extra: Partial<RetryOptions> = {}): RetryOptions => ({ attempts: 3, backoffMs: () => 1, maxWaitMs: 5_000, ...extra });

describe('OutboundClient', () => {
  it('refuses a private address unless allowed, sending nothing, and never retries a refusal', async () => {
    const guarded = new OutboundClient({ allowPrivate: false, publicOnly: 'nothing private' });
    await expect(guarded.request(`${base}/x`, { ...get, retry: quick() })).rejects.toThrow(new UnsafeTargetError('host 127.0.0.1 is a loopback address; nothing private'));
    expect(hits).toBe(0);
  });

  it('connects to the checked address under the URL\'s name', async () => {
    let host: string | undefined;
    script.push((res) => res.writeHead(200).end(String(host)));
    server.once('request', (req) => (host = req.headers.host));
    const named = new OutboundClient({ allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const port = new URL(base).port;
    const answer = await named.request(`http://feeds.example:${port}/x`, get);
    expect(answer).toMatchObject({ status: 200, attempts: 1 });
    expect(host).toBe(`feeds.example:${port}`);
  });

  it('reads the whole body within the limit, declared or not, else fails for good', async () => {
    script.push((res) => res.writeHead(200).end('x'.repeat(1024)));
    expect((await open.request(base, get)).body.length).toBe(1024);
    script.push((res) => res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000)));
    script.push((res) => {
      res.writeHead(200);
      res.write('x'.repeat(800));
      res.end('x'.repeat(800));
    });
    for (let i = 0; i < 2; i++) {
      const failure = await open.request(base, { ...get, retry: quick() }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ name: 'DeliveryError', kind: 'too-large', transient: false, attempts: 1, reason: 'answer larger than 1024 bytes' });
    }
  });

  it('keeps an excerpt of a long body, and reads none when asked not to', async () => {
    script.push((res) => res.writeHead(200).end('y'.repeat(5000)));
    const excerpt = await open.request(base, { ...get, maxResponseBytes: 10, read: 'excerpt' });
    expect(excerpt.body.length).toBeGreaterThanOrEqual(10);
    script.push((res) => res.writeHead(404).end('not here'));
    expect(await open.request(base, { ...get, read: (status) => (status === 200 ? 'whole' : 'none') })).toMatchObject({ status: 404, body: Buffer.alloc(0) });
  });

  it('counts the DNS answer against the attempt\'s deadline', async () => {
    // Answered 250 ms after the connection (made once DNS answered, at 200 ms): a deadline that restarted
    // after DNS would be met; one that counts DNS (300 ms in all) is not.
    script.push((res) => void setTimeout(() => res.writeHead(200).end(), 250));
    const slowDns = new OutboundClient({ allowPrivate: true, resolve: () => new Promise((done) => setTimeout(() => done([{ address: '127.0.0.1', family: 4 }]), 200)) });
    await expect(slowDns.request(`http://slow.example:${new URL(base).port}/`, { ...get, timeoutMs: 300 })).rejects.toMatchObject({ kind: 'timeout', reason: 'timed out after 300 ms' });
  });

  it('makes one attempt when no retry is asked for, whatever the answer', async () => {
    script.push((res) => res.writeHead(503).end());
    expect(await open.request(base, get)).toMatchObject({ status: 503, attempts: 1 });
    expect(hits).toBe(1);
  });

  it('retries a 429 after what Retry-After asks (cut to the longest wait), and a 5xx after the backoff', async () => {
    script.push((res) => res.writeHead(429, { 'retry-after': '2' }).end());
    script.push((res) => res.writeHead(503, { 'retry-after': '3600' }).end());
    script.push((res) => res.writeHead(502).end());
    const waits: number[] = [];
    const told: (number | string | undefined)[] = [];
    const answer = await open.request(base, {
      ...get,
      retry: quick({ attempts: 4, backoffMs: (n) => n * 10, maxWaitMs: 3_000, sleep: async (ms) => void waits.push(ms), onRetry: ({ response, error }) => told.push(response?.status ?? error?.reason) }),
    });
    expect(answer).toMatchObject({ status: 200, attempts: 4 });
    expect(waits).toEqual([2_000, 3_000, 30]);
    expect(told).toEqual([429, 503, 502]);
  });

  it('returns the last answer when the attempts are used up, and never retries another 4xx', async () => {
    script.push(...[0, 1, 2].map(() => (res: ServerResponse) => res.writeHead(500).end('down')));
    expect(await open.request(base, { ...get, retry: quick() })).toMatchObject({ status: 500, attempts: 3 });
    script.push((res) => res.writeHead(400).end());
    expect(await open.request(base, { ...get, retry: quick() })).toMatchObject({ status: 400, attempts: 1 });
  });

  it('retries a transient failure (a refused connection) until the attempts are used up, a final one never', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await open.request(`http://127.0.0.1:${port}/`, { ...get, retry: quick() }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DeliveryError);
    expect(refused).toMatchObject({ reason: 'connection refused', transient: true, attempts: 3 });

    const missing = new OutboundClient({ allowPrivate: true, resolve: async () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })) });
    await expect(missing.request('https://gone.example/', { ...get, retry: quick() })).rejects.toMatchObject({ kind: 'dns', transient: false, attempts: 1 });
    const always = await open.request(`http://127.0.0.1:${port}/`, { ...get, retry: quick({ retryFailure: () => false }) }).catch((error: unknown) => error);
    expect(always).toMatchObject({ attempts: 1 });
  });
});
