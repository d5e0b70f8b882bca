/**
 * The keyless ops endpoints on a real gateway (test/support/ops-gateway.ts): what keeps them cheap
 * (/readyz probes once a second however many ask, /metrics behind its bearer token when one is set,
 * per-address limits on /readyz and /metrics, never on /healthz), and /openapi.json and /docs —
 * the bundled contract, a page loading its renderer from this server only, no key needed on any
 * ops path and no other method routed.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/document.js';
import { call } from './support/http.js';
import { openOpsShop, startOpsGateway, type OpsGateway, type OpsShop } from './support/ops-gateway.js';
import type { TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let gateway: OpsGateway;
let shop: OpsShop | undefined;

beforeAll(async () => {
  shop = await openOpsShop();
  ({ db, gateway } = shop);
});
afterAll(() => shop?.close());

describe('what keeps the keyless endpoints cheap', () => {
  /** A GET from a given loopback address (clients are told apart by address). */
  const from = (address: string, url: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
      request(url, { localAddress: address, headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body }));
      })
        .on('error', reject)
        .end();
    });

  it('/readyz runs one round of probes a second, however many ask', async () => {
    let rounds = 0;
    let clock = 0; // the answer's age is read from this clock, which only the test moves
    const counted = await startOpsGateway(db, { searchReady: () => (rounds++, true), readinessClock: () => clock });
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, () => call(`${counted.url}/readyz`)));
      for (let i = 0; i < 40; i++) answers.push(await call(`${counted.url}/readyz`));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(rounds).toBe(1); // 80 requests within one second: one round
      clock += 999;
      await call(`${counted.url}/readyz`);
      expect(rounds).toBe(1); // not yet a second old
      clock += 1;
      await call(`${counted.url}/readyz`);
      expect(rounds).toBe(2); // refreshed once the answer is a second old
    } finally {
      await counted.close();
    }
  });

  it('/metrics needs the bearer token when one is set, compared whole; the other ops paths do not', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await startOpsGateway(db, { metricsToken: token });
    try {
      const scrape = (headers: Record<string, string> = {}) => call(`${guarded.url}/metrics`, { headers });
      const refused = await scrape();
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: { type: 'authentication_error', message: '/metrics needs Authorization: Bearer <METRICS_TOKEN>' } });
      expect((await scrape({ authorization: `Bearer ${token}x` })).status).toBe(401);
      expect((await scrape({ authorization: `Bearer ${token.slice(0, -1)}` })).status).toBe(401);
      expect((await scrape({ authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` })).status).toBe(401);
      const allowed = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toMatch(/gateway_http_requests_total/);
      for (const path of ['/healthz', '/readyz', '/docs']) expect((await fetch(`${guarded.url}${path}`)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('limits /readyz and /metrics per client address, each address on its own; /healthz is never limited', async () => {
    const limited = await startOpsGateway(db, { perMinute: 5 });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await from('127.0.0.5', `${limited.url}/readyz`)).status);
      for (let i = 0; i < 2; i++) statuses.push((await from('127.0.0.5', `${limited.url}/metrics`)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const refused = await from('127.0.0.5', `${limited.url}/readyz`);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { type: 'rate_limit_exceeded', retry_after: Number(refused.retryAfter) } });
      expect((await from('127.0.0.5', `${limited.url}/metrics`)).status).toBe(429);
      expect((await from('127.0.0.6', `${limited.url}/readyz`)).status).toBe(200); // another client
      for (let i = 0; i < 10; i++) expect((await from('127.0.0.5', `${limited.url}/healthz`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /openapi.json and /docs', () => {
  it('/openapi.json is the bundled contract', async () => {
    const reply = await call(`${gateway.url}/openapi.json`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual(loadContract());
  });

  it('/docs is a page that loads the renderer from this server only', async () => {
    const reply = await fetch(`${gateway.url}/docs`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expect(reply.headers.get('content-security-policy')).toMatch(/default-src 'self'.*script-src 'self'/);
    const html = await reply.text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/docs/scalar.js', '/docs/init.js']);
    expect(html).not.toMatch(/https?:\/\//);
    for (const src of scripts) {
      const script = await fetch(`${gateway.url}${src}`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect((await script.text()).length).toBeGreaterThan(100);
    }
  });

  it('none of the ops paths needs a key, and other methods on them are not routes', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs']) {
      expect((await fetch(`${gateway.url}${path}`)).status).toBe(200);
    }
    const post = await call(`${gateway.url}/healthz`, { method: 'POST' });
    expect(post.status).toBe(404);
    expect(post.body).toMatchObject({ code: 'not_found' });
  });
});
