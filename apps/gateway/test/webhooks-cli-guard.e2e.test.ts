/**
 * `webhooks add-endpoint` through the real CLI: an endpoint the SSRF guard refuses in this
 * environment is refused at once, with one line naming why, and nothing is written.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { runCli } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase | undefined;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url };
  } else {
    env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-webhooks-guard-')), DATABASE_URL: undefined };
  }
  expect((await runCli(['merchants', 'create', 'shop'], env)).code).toBe(0);
  const created = await runCli(['keys', 'create', '--merchant', 'shop'], env);
  expect(created.code, created.stderr).toBe(0);
}, 120_000);
afterAll(() => db?.close());

async function endpointUrls(): Promise<string[]> {
  const opened = db ?? (await openDatabase({ dataDir: env.DATA_DIR! }));
  try {
    return (await opened.prisma.webhookEndpoint.findMany({ orderBy: { createdAt: 'asc' } })).map((row) => row.url);
  } finally {
    if (!db) await opened.close();
  }
}

const addEndpoint = (url: string, settings: Record<string, string>) => runCli(['webhooks', 'add-endpoint', '--merchant', 'shop', '--url', url], { ...env, ...settings });

describe('webhooks add-endpoint', () => {
  it.each([
    ['a loopback address, private targets off', 'http://127.0.0.1:8080/hooks', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, 'host 127.0.0.1 is a loopback address'],
    ['a private address in sandbox (off by default)', 'https://10.0.0.5/hooks', { GATEWAY_ENV: 'sandbox' }, 'host 10.0.0.5 is a private address'],
    ['cloud metadata in an IPv4-translated address', 'http://[::ffff:0:169.254.169.254]/latest', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, 'host ::ffff:0:a9fe:a9fe is a cloud-metadata address'],
    ['a Teredo address', 'http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, 'host 2001:0:4136:e378:8000:63bf:f7f7:f7f7 is a Teredo (tunnelled IPv4) address'],
    ['a host name resolving to loopback', 'http://localhost:9/hooks', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, 'host localhost resolves to a loopback address'],
  ])('refuses %s with one line naming why, exits non-zero and writes nothing', async (_name, url, settings, reason) => {
    const result = await addEndpoint(url, settings);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: --url host [^\n]+; webhooks are only sent to public addresses \(WEBHOOK_ALLOW_PRIVATE_TARGETS is off\)\n$/);
    expect(result.stderr).toContain(reason);
    expect(await endpointUrls()).not.toContain(url);
  }, 60_000);

  it('adds a public address, and a private one where private targets are allowed (development)', async () => {
    const added = await addEndpoint('https://93.184.216.34/hooks', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout.trim().split('\n').at(-1)).toMatch(/^whsec_/);
    const local = await addEndpoint('http://127.0.0.1:8080/hooks', { GATEWAY_ENV: 'development' });
    expect(local.code, local.stderr).toBe(0);
    expect(await endpointUrls()).toEqual(['https://93.184.216.34/hooks', 'http://127.0.0.1:8080/hooks']);
  }, 60_000);
});
