/**
 * The operator CLI as an operator runs it: a separate process, real files,
 * the embedded database (or PostgreSQL when TEST_DATABASE_URL is set).
 */
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, searchProducts } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { exitOf, runCli, startServe } from './support/cli.js';
import { catalogFile, product } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

/** Each test starts the CLI as a process (tsx, PGlite, migrations): slow when the whole suite runs beside it on two cores. */
const CLI_TIMEOUT_MS = 120_000;

describe('one clear line and a non-zero exit for a bad setting', { timeout: CLI_TIMEOUT_MS }, () => {
  it.each([
    [{ GATEWAY_ENV: 'staging' }, /^error: GATEWAY_ENV="staging" is not one of development, sandbox, production\n$/],
    [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/test' }, /^error: DATABASE_URL: cannot connect to 127\.0\.0\.1:1\/test: connection refused or host unreachable\n$/],
    [{ PORT: 'http' }, /^error: PORT="http" is not a port number/],
  ])('%o', async (env, stderr) => {
    const result = await runCli(['serve'], { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-cli-')), ...env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(stderr);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('PORT in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['serve'], { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-cli-')), PORT: String(port) });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toBe(`error: PORT ${port} is already in use on 127.0.0.1 (set PORT to another port)\n`);
    } finally {
      blocker.close();
    }
  });
});

describe('with a database', { timeout: CLI_TIMEOUT_MS }, () => {
  let db: TestDatabase;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    db = await createTestDatabase();
    if (db.url) {
      env = { DATABASE_URL: db.url };
    } else {
      await db.close(); // the CLI gets its own embedded database on disk
      env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-cli-')) };
    }
    // A --merchant must name a merchant: the CLI refuses to create one by accident.
    expect((await runCli(['merchants', 'create', 'cli-shop', 'x', 'cli-cat', 'hooked'], env)).code).toBe(0);
  });
  afterAll(async () => {
    if (db?.url) await db.close();
  });

  async function productIds(merchantId: string): Promise<string[]> {
    const handle = db.url ? db : await openDatabase({ dataDir: env.DATA_DIR! });
    try {
      const rows = await handle.prisma.product.findMany({ where: { merchantId }, orderBy: { id: 'asc' }, select: { id: true } });
      return rows.map((r) => r.id);
    } finally {
      if (!db.url) await handle.close();
    }
  }

  it('keys create prints the id, the signing secret when asked, and the key alone on the last line', async () => {
    const result = await runCli(['keys', 'create', '--merchant', 'cli-shop', '--env', 'sandbox', '--scopes', 'catalog:read', '--signing-secret'], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^id: key_[0-9A-Za-z]{16}$/);
    expect(lines[1]).toMatch(/^signing secret: ss_/);
    expect(lastLine(result.stdout)).toMatch(/^sk_sandbox_[0-9A-Za-z]{32}$/);

    const list = await runCli(['keys', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(lines[0]!.slice(4));
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+KEY\s+MERCHANTS\s+SCOPES\s+TIER/);
    expect(list.stdout).toMatch(/sk_sandbox_…\w{4}\s+cli-shop\s+catalog:read/);
    expect(list.stdout).not.toContain(lastLine(result.stdout));
    expect(list.stdout).not.toContain(lines[1]!.slice('signing secret: '.length));

    const revoke = await runCli(['keys', 'revoke', lastLine(result.stdout)], env);
    expect(revoke.code).toBe(0);
    expect((await runCli(['keys', 'list'], env)).stdout).toMatch(/revoked \d{4}-/);
  });

  it.each([
    [['keys', 'create', '--merchant', 'x', '--scopes', 'everything'], /^error: --scopes: unknown scope "everything"/],
    [['keys', 'create', '--merchant', 'x', '--env', 'staging'], /^error: --env must be one of development, sandbox, production/],
    [['keys', 'create', '--merchant', 'x', '--tier', 'enterprise'], /^error: the enterprise tier needs rpm and rpd limits/],
    [['keys', 'create', '--merchant', 'x', '--rpm', '-5'], /^error: /],
    [['keys', 'revoke', 'key_doesnotexist'], /^error: no key "key_doesnotexist"/],
    [['catalog', 'import', '/nonexistent.ndjson', '--merchant', 'x'], /^error: no file \/nonexistent.ndjson/],
    [['webhooks', 'add-endpoint', '--merchant', 'x', '--url', 'ftp://x'], /^error: --url must be an http\(s\) URL/],
  ])('%j fails with one line', async (args, stderr) => {
    const result = await runCli(args, env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(stderr);
  });

  it('catalog import reports the bad line and leaves the catalog as it was', async () => {
    const good = await runCli(['catalog', 'import', catalogFile([product({ id: 'p1' }), product({ id: 'p2' })]), '--merchant', 'cli-cat'], env);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^imported 2 products for merchant cli-cat from .* in [\d.]+ s\n$/);

    const lines = [product({ id: 'p3' }), product({ id: 'p4' }), '{"id": "p5", "title": }', product({ id: 'p6' })];
    const bad = await runCli(['catalog', 'import', catalogFile(lines), '--merchant', 'cli-cat'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/^error: line 3: invalid JSON/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(await productIds('cli-cat')).toEqual(['p1', 'p2']);
  });

  it('webhooks add-endpoint prints the signing secret on the last line', async () => {
    await runCli(['keys', 'create', '--merchant', 'hooked'], env);
    const result = await runCli(['webhooks', 'add-endpoint', '--merchant', 'hooked', '--url', 'https://hooks.example/orders'], env);
    expect(result.code).toBe(0);
    expect(lastLine(result.stdout)).toMatch(/^whsec_/);
  });
});

describe('serve on the embedded defaults', { timeout: CLI_TIMEOUT_MS }, () => {
  it('seeds the demo catalog, prints a key that works, runs other commands through itself, stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-serve-'));
    const { child, stdout, url } = await startServe({ DATA_DIR: dataDir, PORT: '0', DATABASE_URL: undefined, GATEWAY_ENV: 'development' });
    try {
      const key = /(sk_dev_[0-9A-Za-z]{32})/.exec(stdout())?.[1];
      expect(stdout()).toContain('Seeded merchant "demo" with 2962 products.');
      expect(key).toBeDefined();
      const client = createClient({ baseUrl: url, headers: { 'X-ACP-API-Key': key! } });
      const { data } = await searchProducts({ client, query: { category: 'chairs', page_size: 3 } });
      expect(data?.total).toBeGreaterThan(3);
      expect(data?.items).toHaveLength(3);

      const through = await runCli(['keys', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined }); // test/cli-socket.e2e.test.ts has more
      expect(through.code).toBe(0);
      expect(JSON.parse(through.stdout)).toMatchObject([{ merchants: ['demo'], environment: 'development' }]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitOf(child)).toBe(0);
  }, 240_000); // a `serve` on the embedded defaults seeds the demo catalog: 20–40 s idle, 2–3× that loaded
});
