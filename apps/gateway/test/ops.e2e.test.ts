/**
 * The operations endpoints and the request log, on a real gateway: /healthz,
 * /readyz, /metrics, /openapi.json and /docs answer without an API key and
 * leak nothing; one JSON log line per request, never a credential.
 */
import { request } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { loadConfig } from '../src/config/config.js';
import { loadContract } from '../src/contract/document.js';
import { openDatabase } from '../src/db/database.js';
import type { OpsDeps } from '../src/ops/ops-endpoints.js';
import { memoryStores } from '../src/rate-limit/stores.js';
import { listenOn, type Listening } from '../src/server.js';
import { buildServices, type Services } from '../src/services.js';
import { OutboxStore } from '../src/webhooks/outbox-store.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { catalogFile, product } from './support/fixtures.js';
import { call } from './support/http.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

interface OpsGateway {
  url: string;
  services: Services;
  logLines: Record<string, unknown>[];
  logText: () => string;
  key(options?: { rpm?: number; signingSecret?: boolean }): Promise<{ key: string; signingSecret?: string | undefined }>;
  close(): Promise<void>;
}

/** A gateway app over `db` with the given ops dependencies and a logger we can read. */
async function startOpsGateway(db: TestDatabase | Awaited<ReturnType<typeof openDatabase>>, ops: OpsDeps = {}): Promise<OpsGateway> {
  const logLines: Record<string, unknown>[] = [];
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      for (const line of String(chunk).split('\n')) if (line) logLines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({ LOG_LEVEL: 'info' });
  const services = buildServices(db);
  const logger = pino({ level: 'info', base: undefined }, sink);
  const rateLimits = memoryStores();
  const listening: Listening = await listenOn(createApp({ config, logger, rateLimits, ...services, ops: { database: db, ...ops } }), '127.0.0.1', 0);
  return {
    url: listening.url,
    services,
    logLines,
    logText: () => text,
    async key({ rpm, signingSecret } = {}) {
      const created = await services.keys.create({
        merchantIds: ['ops-shop'],
        env: config.env,
        scopes: ['*'],
        tier: 'enterprise',
        rpm: rpm ?? 1_000_000,
        rpd: 10_000_000,
        signingSecret,
      });
      return { key: created.key, signingSecret: created.signingSecret };
    },
    async close() {
      listening.server.closeAllConnections();
      await listening.close();
    },
  };
}

let db: TestDatabase;
let gateway: OpsGateway;

beforeAll(async () => {
  db = await createTestDatabase();
  await importCatalog(db, 'ops-shop', catalogFile([product({ id: 'chair' })]));
  gateway = await startOpsGateway(db);
});
afterAll(async () => {
  await gateway?.close();
  await db?.close();
});

describe('GET /healthz and /readyz', () => {
  it('/healthz answers 200 without an API key', async () => {
    const reply = await call(`${gateway.url}/healthz`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('request-id')).toMatch(/^req_/);
  });

  it('/readyz is ready when the database answers, its migrations are applied and search is ready', async () => {
    const reply = await call(`${gateway.url}/readyz`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', search: 'ok', catalog: 'ok' } });
  });

  it('/readyz is unready while migrations are pending', async () => {
    const fresh = await openDatabase({ dataDir: null }); // never migrated
    const unmigrated = await startOpsGateway(fresh);
    try {
      const reply = await call(`${unmigrated.url}/readyz`);
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ status: 'unready', checks: { database: 'ok', migrations: 'pending', search: 'ok', catalog: 'ok' } });
    } finally {
      await unmigrated.close();
      await fresh.close();
    }
  });

  it('/readyz is unready when the database goes away, and says only that', async () => {
    const doomed = await createTestDatabase();
    const app = await startOpsGateway(doomed);
    try {
      expect((await call(`${app.url}/readyz`)).status).toBe(200);
      await doomed.close();
      // The status is refreshed at most once a second: unready by the next refresh.
      await expect.poll(async () => (await call(`${app.url}/readyz`)).status, { timeout: 10_000, interval: 200 }).toBe(503);
      const reply = await call(`${app.url}/readyz`);
      expect(reply.body).toEqual({ status: 'unready', checks: { database: 'unreachable', migrations: 'unreachable', search: 'ok', catalog: 'ok' } });
    } finally {
      await app.close();
    }
  });

  it('/readyz reports a search index that is not ready, and a probe that hangs, within the time bound', async () => {
    const notReady = await startOpsGateway(db, { searchReady: () => false });
    const hanging = await startOpsGateway(db, { searchReady: () => new Promise<boolean>(() => {}), probeTimeoutMs: 300 });
    try {
      expect((await call(`${notReady.url}/readyz`)).body.checks.search).toBe('not_ready');
      const reply = await call(`${hanging.url}/readyz`); // answers at all: the probe that hangs is cut at 300 ms
      expect(reply.status).toBe(503);
      expect(reply.body.checks).toEqual({ database: 'ok', migrations: 'ok', search: 'timeout', catalog: 'ok' });
    } finally {
      await Promise.all([notReady.close(), hanging.close()]);
    }
  });
});

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

describe('the request log', () => {
  it('writes one JSON line per request with its id, operation, method, path, status, duration and merchant', async () => {
    const { key } = await gateway.key();
    const reply = await call(`${gateway.url}/acp/products/chair?fields=x`, { headers: { 'X-ACP-API-Key': key, 'Request-Id': 'req-log-1' } });
    expect(reply.status).toBe(400); // unknown query parameter: still one line
    await call(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key, 'Request-Id': 'req-log-2', 'Accept-Language': 'de-CH, de;q=0.9' } });
    await new Promise((resolve) => setImmediate(resolve));
    const lines = gateway.logLines.filter((l) => l.msg === 'request' && String(l.requestId).startsWith('req-log-'));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      level: 30,
      time: expect.any(Number),
      msg: 'request',
      requestId: 'req-log-2',
      operation: 'getProduct',
      method: 'GET',
      path: '/acp/products/chair',
      status: 200,
      durationMs: expect.any(Number),
      merchant: 'ops-shop',
      locale: 'de-CH',
    });
    expect(lines[0]).not.toHaveProperty('locale');
    expect(lines[0]).toMatchObject({ requestId: 'req-log-1', status: 400, path: '/acp/products/chair' });
  });

  it('never logs a key, secret or signature, whatever the request carried', async () => {
    const { key, signingSecret } = await gateway.key({ signingSecret: true });
    const { key: plain } = await gateway.key();
    const basic = Buffer.from(`${plain}:`).toString('base64');
    const emitSecret = 'whsec_never_in_a_log_line';
    await call(`${gateway.url}/acp/products/chair`, { headers: { Authorization: `Bearer ${plain}` } });
    await call(`${gateway.url}/acp/products/chair`, { headers: { Authorization: `Basic ${basic}` } });
    await call(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key, Signature: 'c2lnbmF0dXJlLXZhbHVl', Timestamp: String(Math.floor(Date.now() / 1000)) } });
    const emitted = await call(`${gateway.url}/webhooks/emit`, { method: 'POST', headers: { 'X-ACP-API-Key': plain }, json: { event_type: 'order.created', signature_secret: emitSecret } });
    expect(emitted.status).toBe(200);
    await call(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': `${plain}-wrong` } });
    await new Promise((resolve) => setImmediate(resolve));
    const text = gateway.logText();
    for (const secret of [key, plain, basic, signingSecret, emitSecret, 'c2lnbmF0dXJlLXZhbHVl', emitted.body.signature, `${plain}-wrong`]) {
      if (secret) expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/sk_(dev|sandbox|live)_/);
  });
});
