/**
 * `catalog push-feed` through the real CLI against a real Feed API on 127.0.0.1: the target is
 * guarded as webhook endpoints are (WEBHOOK_ALLOW_PRIVATE_TARGETS, off but in development), a URL
 * with credentials is refused once without repeating them, and what cannot succeed is not
 * retried. A refusal is one line on stderr, and the receiver never sees the token.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { openDatabase } from '../src/db/database.js';
import { stocked } from './support/checkout.js';
import { runCli } from './support/cli.js';
import { startFeedService, type FeedService } from './support/feed-service.js';
import { catalogFile } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase | undefined;
let env: Record<string, string | undefined>;
let service: FeedService;

beforeAll(async () => {
  const file = catalogFile([stocked('lamp', [{ sku: 'lamp-1', price: 24 }]), stocked('desk', [{ sku: 'desk-1', price: 150 }])]);
  if (process.env.TEST_DATABASE_URL) {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url };
    await importCatalog(db, 'guarded', file);
  } else {
    env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-feed-guard-')), DATABASE_URL: undefined };
    const opened = await openDatabase({ dataDir: env.DATA_DIR! });
    await opened.migrate();
    await importCatalog(opened, 'guarded', file);
    await opened.close();
  }
  // Settings that would change what is tested come from each test only.
  for (const name of ['GATEWAY_ENV', 'WEBHOOK_ALLOW_PRIVATE_TARGETS', 'FEED_API_TOKEN', 'STOREFRONT_URL']) env[name] = undefined;
  service = await startFeedService();
}, 120_000);
afterAll(async () => {
  await service?.close();
  await db?.close();
});
beforeEach(() => {
  service.requests.length = 0;
  service.scripts.length = 0;
});

const pushFeed = (to: string, settings: Record<string, string> = {}, token = service.token) =>
  runCli(['catalog', 'push-feed', '--merchant', 'guarded', '--to', to, '--token', token], { ...env, ...settings });

const port = () => new URL(service.url).port;

describe('catalog push-feed to a non-public address', () => {
  it.each([
    ['127.0.0.1 in production', () => `http://127.0.0.1:${port()}`, { GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'https://gateway.example' }, 'host 127.0.0.1 is a loopback address'],
    ['localhost with WEBHOOK_ALLOW_PRIVATE_TARGETS=false', () => `http://localhost:${port()}/api`, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, 'host localhost resolves to a loopback address'],
    ['[::ffff:127.0.0.1] in sandbox', () => `http://[::ffff:127.0.0.1]:${port()}`, { GATEWAY_ENV: 'sandbox' }, 'host ::ffff:7f00:1 is a loopback address'],
  ])('refuses %s with one line naming why, and the receiver gets no request (so no token)', async (_name, to, settings, reason) => {
    const result = await pushFeed(to(), settings);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`error: --to ${reason}; feeds are only pushed to public addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)\n`);
    expect(service.requests).toEqual([]);
  }, 60_000);

  it('pushes there with WEBHOOK_ALLOW_PRIVATE_TARGETS=true, even in production', async () => {
    const result = await pushFeed(`${service.url}/allowed`, { GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'https://gateway.example', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^created feed feed_\w+ at http:\/\/127\.0\.0\.1:\d+\/allowed: 2 sent \(new or changed\)/);
    expect(service.requests.map((r) => `${r.method} ${r.operation}`)).toEqual(['POST /feeds', 'PATCH /feeds/{id}/products']);
    expect(service.requests[0]!.headers.authorization).toBe(`Bearer ${service.token}`);
  }, 60_000);
});

describe('catalog push-feed --to with credentials', () => {
  it.each([
    ['http://feeder:s3cret-pass@127.0.0.1:PORT/api', /^error: --to must not carry credentials \(user:password@\); the Feed API is given a bearer token — give it with --token or FEED_API_TOKEN\n$/],
    ['https://feeder:s3cret-pass@agent.example', /^error: --to must not carry credentials/],
    ['ftp://feeder:s3cret-pass@127.0.0.1/', /^error: --to must not carry credentials/],
    ['http://feeder:s3cret-pass@[not-an-address/', /^error: --to must be the http\(s\) base URL of a Feed API \(its \/feeds is appended\)\n$/],
  ])('refuses %s once, without repeating the credentials or the URL', async (url, message) => {
    const result = await pushFeed(url.replace('PORT', port()), { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr).not.toContain('s3cret-pass');
    expect(result.stderr).not.toContain('feeder');
    expect(service.requests).toEqual([]);
  }, 60_000);
});

describe('catalog push-feed never retries what cannot succeed', () => {
  const answer = (status: number, headers: Record<string, string> = {}) =>
    service.scripts.push((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ type: 'invalid_request', code: `status_${status}`, message: `Scripted ${status}` }));
      return true;
    });

  it.each([
    ['a 400', () => answer(400), undefined, /^error: POST \/feeds refused: 400 Scripted 400 \(status_400\)\n$/],
    ['a 401 (wrong token)', () => {}, 'not-the-token', /^error: POST \/feeds refused: 401 Bearer token required \(unauthorized\)\n$/],
    ['a 404', () => answer(404), undefined, /^error: POST \/feeds refused: 404 Scripted 404 \(status_404\)\n$/],
    ['a redirect, even to a public address', () => answer(307, { location: 'https://93.184.216.34/feeds' }), undefined, /^error: POST \/feeds refused: 307 Scripted 307 \(status_307\) \(a redirect, not followed\)\n$/],
  ])('stops at %s: one request, one line, no wait', async (name, script, token, message) => {
    script();
    const result = await pushFeed(`${service.url}/${name.replace(/\W+/g, '-')}`, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, token ?? service.token);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('retrying');
    // The command has exited: a retry would show as a second request and a 'retrying' line, not as time.
    expect(service.requests).toHaveLength(1);
  }, 60_000);

  it('stops at a TLS error: one connection, one line, no wait', async () => {
    // Speaks HTTP, not TLS: an https:// client fails its handshake ("wrong version number").
    let connections = 0;
    const sockets = new Set<Socket>();
    const plain: Server = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.on('error', () => {});
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const result = await pushFeed(`https://127.0.0.1:${(plain.address() as { port: number }).port}`, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error: POST \/feeds failed: TLS error \([^)\n]+\)\n$/);
      expect(connections).toBe(1); // exited after one: a retry would have connected again
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => plain.close(resolve));
    }
  }, 60_000);
});
