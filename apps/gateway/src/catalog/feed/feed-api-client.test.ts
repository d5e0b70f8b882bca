import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Resolver } from '../../kernel/outbound/safe-target.js';
import { retryAfterMs } from '../../kernel/outbound/outbound-client.js';
import { FeedApiClient, FeedTargetError, type FeedApiOptions } from './feed-api-client.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-05-01T00:00:00Z');
  it.each([
    ['seconds', '3', 3000],
    ['zero seconds', '0', 0],
    ['an HTTP date 90 s ahead', 'Fri, 01 May 2026 00:01:30 GMT', 90_000],
    ['an HTTP date in the past', 'Thu, 30 Apr 2026 23:00:00 GMT', 0],
  ])('reads %s', (_, value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });

  it.each([null, '', 'soon', '-5'])('ignores %j', (value) => {
    expect(retryAfterMs(value, now)).toBeUndefined();
  });
});

/** A real Feed API stand-in on 127.0.0.1: answers POST /feeds with the next scripted status (201 when none is left). */
let server: Server;
let port: number;
const received: { path: string; headers: IncomingHttpHeaders }[] = [];
const script: { status: number; headers?: Record<string, string> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers });
      const { status, headers } = script.shift() ?? { status: 201 };
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(status === 201 ? { id: 'feed_1' } : { type: 'invalid_request', code: `status_${status}`, message: `Scripted ${status}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
  script.length = 0;
});

const resolveTo = (...answers: string[][]): Resolver & { calls: number } => {
  const resolver = Object.assign(
    async () => {
      const addresses = answers[Math.min(resolver.calls++, answers.length - 1)]!;
      return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
    },
    { calls: 0 },
  );
  return resolver;
};
const dnsFails = (code: string): Resolver => async () => {
  throw Object.assign(new Error(`getaddrinfo ${code} feeds.example`), { code });
};

const client = (options: Partial<FeedApiOptions> = {}) =>
  new FeedApiClient({ baseUrl: `http://127.0.0.1:${port}/api`, token: 'tok', allowPrivateTargets: true, backoffMs: 1, maxAttempts: 3, ...options });

describe('FeedApiClient: the webhooks\' SSRF guard', () => {
  it('refuses a name resolving to a private address before connecting, unless private targets are allowed — then it goes to the checked address, under the name', async () => {
    const options = { baseUrl: `http://feeds.example:${port}/api`, resolve: resolveTo(['127.0.0.1']) };
    const refused = client({ ...options, allowPrivateTargets: false });
    const reason = 'host feeds.example resolves to a loopback address; feeds are only pushed to public addresses';
    await expect(refused.checkTarget()).rejects.toMatchObject({ name: 'FeedTargetError', refused: 'address', message: reason });
    await expect(refused.createFeed()).rejects.toMatchObject({ name: 'FeedTargetError', refused: 'address', message: reason });
    expect(received).toEqual([]);

    await expect(client(options).createFeed()).resolves.toEqual({ id: 'feed_1' });
    expect(received).toEqual([{ path: '/api/feeds', headers: expect.objectContaining({ host: `feeds.example:${port}`, authorization: 'Bearer tok' }) }]);
  });

  it.each([
    ['127.0.0.1', 'host 127.0.0.1 is a loopback address'],
    ['[::ffff:127.0.0.1]', 'host ::ffff:7f00:1 is a loopback address'],
    ['[::1]', 'host ::1 is a loopback address'],
    ['10.1.2.3', 'host 10.1.2.3 is a private address'],
    ['169.254.169.254', 'host 169.254.169.254 is a cloud-metadata address'],
  ])('refuses %s when private targets are not allowed, sending nothing', async (host, reason) => {
    await expect(client({ baseUrl: `http://${host}:${port}`, allowPrivateTargets: false }).createFeed()).rejects.toThrow(`${reason}; feeds are only pushed to public addresses`);
    expect(received).toEqual([]);
  });

  it('checks the address again at every request: a name that turns private after the check is refused at the request (DNS rebinding)', async () => {
    const resolve = resolveTo(['93.184.216.34'], ['127.0.0.1']);
    const rebound = client({ baseUrl: `http://feeds.example:${port}`, resolve, allowPrivateTargets: false });
    await expect(rebound.checkTarget()).resolves.toBeUndefined();
    await expect(rebound.createFeed()).rejects.toBeInstanceOf(FeedTargetError);
    expect(resolve.calls).toBe(2);
    expect(received).toEqual([]);
  });

  it.each([
    ['https://feeder:s3cret@agent.example/api', 'must not carry credentials (user:password@); the Feed API is given a bearer token'],
    ['https://:s3cret@agent.example', 'must not carry credentials (user:password@); the Feed API is given a bearer token'],
    ['ftp://agent.example', 'must use http or https, not ftp'],
    ['agent.example/api', 'is not an absolute http(s) URL'],
  ])('refuses %s when made, without repeating the URL', (baseUrl, message) => {
    const make = () => new FeedApiClient({ baseUrl, token: 'tok', allowPrivateTargets: false });
    expect(make).toThrow(FeedTargetError);
    expect(make).toThrow(message);
    expect(() => make()).not.toThrow(/s3cret|agent\.example/);
  });
});

describe('FeedApiClient: only what may succeed later is retried', () => {
  const retries = (options: Partial<FeedApiOptions> = {}) => {
    const reasons: string[] = [];
    return { reasons, client: client({ onRetry: ({ reason }) => reasons.push(reason), ...options }) };
  };

  it.each([
    ['a 503', [{ status: 503 }], '503 Scripted 503 (status_503)'],
    ['a 429 with Retry-After', [{ status: 429, headers: { 'retry-after': '0' } }], '429 Scripted 429 (status_429)'],
    ['two 500s', [{ status: 500 }, { status: 500 }], '500 Scripted 500 (status_500)'],
  ])('retries %s, then succeeds', async (_name, answers, reason) => {
    script.push(...answers);
    const { client, reasons } = retries();
    await expect(client.createFeed()).resolves.toEqual({ id: 'feed_1' });
    expect(reasons).toEqual(answers.map(() => reason));
    expect(received).toHaveLength(answers.length + 1);
    expect(new Set(received.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it.each([
    [400, 'POST /feeds refused: 400 Scripted 400 (status_400)'],
    [401, 'POST /feeds refused: 401 Scripted 401 (status_401)'],
    [404, 'POST /feeds refused: 404 Scripted 404 (status_404)'],
    [409, 'POST /feeds refused: 409 Scripted 409 (status_409)'],
    [307, 'POST /feeds refused: 307 Scripted 307 (status_307) (a redirect, not followed)'],
  ])('stops at a %i: one request, no retry', async (status, message) => {
    script.push({ status, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
    const { client, reasons } = retries();
    await expect(client.createFeed()).rejects.toMatchObject({ name: 'FeedApiError', message, status, code: `status_${status}` });
    expect(reasons).toEqual([]);
    expect(received).toHaveLength(1);
  });

  it('retries a refused connection until the attempts are used up', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { client, reasons } = retries({ baseUrl: `http://127.0.0.1:${closedPort}` });
    await expect(client.createFeed()).rejects.toThrow('POST /feeds failed after 3 attempts: connection refused');
    expect(reasons).toEqual(['connection refused', 'connection refused']);
  });

  it('retries a DNS server that did not answer (EAI_AGAIN), not a name that does not exist (ENOTFOUND)', async () => {
    const again = retries({ baseUrl: 'https://feeds.example', resolve: dnsFails('EAI_AGAIN') });
    await expect(again.client.createFeed()).rejects.toThrow('POST /feeds failed after 3 attempts: DNS lookup of feeds.example failed (EAI_AGAIN)');
    expect(again.reasons).toHaveLength(2);
    const missing = retries({ baseUrl: 'https://feeds.example', resolve: dnsFails('ENOTFOUND') });
    await expect(missing.client.createFeed()).rejects.toThrow('POST /feeds not sent: DNS lookup of feeds.example failed (ENOTFOUND)');
    expect(missing.reasons).toEqual([]);
  });

  it('stops at a TLS error (an https:// URL to a server speaking plain HTTP): one connection, no retry', async () => {
    const { client, reasons } = retries({ baseUrl: `https://127.0.0.1:${port}` });
    await expect(client.createFeed()).rejects.toThrow(/^POST \/feeds failed: TLS error \(/);
    expect(reasons).toEqual([]);
  });
});
