/**
 * The CLI beside a running gateway on the embedded database: `serve` holds the data directory, and
 * a second process's commands run in it, through the local socket in the data directory — while
 * it keeps serving HTTP. Real processes, real files, the real embedded database.
 */
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, runCli, startServe } from './support/cli.js';
import { product } from './support/fixtures.js';

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';
const dataDir = mkdtempSync(join(tmpdir(), 'gw-sock-'));
const env = { DATA_DIR: dataDir, DATABASE_URL: undefined };
let served: Awaited<ReturnType<typeof startServe>>;

beforeAll(async () => {
  served = await startServe({ ...env, PORT: '0', GATEWAY_ENV: 'sandbox', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
}, 90_000);
afterAll(() => {
  served?.child.kill('SIGKILL');
});

/** The gateway answers HTTP: asserted between the commands. */
async function stillServing(): Promise<void> {
  expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
}

describe('the CLI beside a running gateway', { timeout: 60_000 }, () => {
  it('listens on a socket in the data directory that only its owner may use', () => {
    const socket = statSync(join(dataDir, 'gateway.sock'));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
  });

  it('creates a merchant and a key, imports a catalog from another directory, adds an endpoint and lists keys, while serving', async () => {
    const merchant = await runCli(['merchants', 'create', 'sock-shop'], env);
    expect(merchant).toMatchObject({ code: 0, stdout: 'created merchant sock-shop\n' });
    await stillServing();

    const created = await runCli(['keys', 'create', '--merchant', 'sock-shop', '--env', 'sandbox'], env);
    expect(created.code).toBe(0);
    const key = lastLine(created.stdout);
    expect(key).toMatch(/^sk_sandbox_/);
    await stillServing();

    // The file is relative to the CLI's directory, which is not the server's: the CLI streams it.
    const cwd = mkdtempSync(join(tmpdir(), 'gw-sock-cwd-'));
    writeFileSync(join(cwd, 'products.ndjson'), [product({ id: 'p1' }), product({ id: 'p2' })].map((p) => JSON.stringify(p)).join('\n'));
    const imported = await runCli(['catalog', 'import', 'products.ndjson', '--merchant', 'sock-shop'], env, { cwd });
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toMatch(/^imported 2 products for merchant sock-shop from products\.ndjson in [\d.]+ s\n$/);
    const search = await fetch(`${served.url}/acp/products?category=Things&page_size=5`, { headers: { 'X-ACP-API-Key': key } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { total: number }).total).toBe(2); // the running gateway's search index has them

    const endpoint = await runCli(['webhooks', 'add-endpoint', '--merchant', 'sock-shop', '--url', 'http://127.0.0.1:9/hook'], env);
    expect(endpoint.code).toBe(0);
    expect(endpoint.stdout).toMatch(/^id: we_/);
    await stillServing();

    const keys = await runCli(['keys', 'list', '--json'], env);
    expect(keys.code).toBe(0);
    expect((JSON.parse(keys.stdout) as { merchants: string[] }[]).map((k) => k.merchants)).toEqual([['sock-shop']]);
    const table = await runCli(['keys', 'list'], env);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+KEY\s+MERCHANTS\s+SCOPES/);
    await stillServing();
  });

  it('refuses what it must in one line, changing nothing: a missing file, an unknown merchant, an export to a file', async () => {
    const unknown = await runCli(['catalog', 'import', join(tmpdir(), 'nothing-here.ndjson'), '--merchant', 'nosuch'], env);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^error: no file /);

    const file = join(mkdtempSync(join(tmpdir(), 'gw-sock-f-')), 'p.ndjson');
    writeFileSync(file, JSON.stringify(product({ id: 'x1' })));
    const refused = await runCli(['catalog', 'import', file, '--merchant', 'nosuch'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('error: no merchant "nosuch" (create it first: pnpm gateway merchants create nosuch)\n');
    const merchants = await runCli(['merchants', 'list', '--json'], env);
    expect((JSON.parse(merchants.stdout) as { id: string }[]).map((m) => m.id)).toEqual(['sock-shop']);

    const out = await runCli(['customers', 'export', '--merchant', 'sock-shop', '--out', 'x.ndjson'], env);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^error: customers export --out cannot run through the running gateway/);
    await stillServing();
  });

  it('ignores a crashed gateway\'s socket and pid file (the CLI opens the database itself), and the next serve replaces them', async () => {
    // (A clean stop removing both: test/startup-npm-start.e2e.test.ts.)
    served.child.kill('SIGKILL');
    await exitOf(served.child);
    expect(existsSync(join(dataDir, 'gateway.sock'))).toBe(true);
    expect(existsSync(join(dataDir, 'gateway.pid'))).toBe(true);
    const direct = await runCli(['merchants', 'list'], env);
    expect(direct.code).toBe(0);
    expect(direct.stdout).toMatch(/^ID\s+NAME/);

    // A command sent while the next serve starts (its pid file written, the crashed one's socket
    // still there) waits for it to answer, then runs in it: no refusal, no second opener.
    const starting = startServe({ ...env, PORT: '0', GATEWAY_ENV: 'sandbox' });
    await expect.poll(() => existsSync(join(dataDir, 'gateway.pid')), { timeout: 60_000, interval: 20 }).toBe(true);
    const early = await runCli(['merchants', 'list', '--json'], env);
    served = await starting;
    expect(early.stderr).toMatch(/^waiting for process \d+, which holds the embedded database \(a gateway starting\?\), to answer…\n$/);
    expect(early.code).toBe(0);
    expect(JSON.parse(early.stdout)).toHaveLength(1);
    expect(statSync(join(dataDir, 'gateway.sock')).mode & 0o777).toBe(0o600);
    const through = await runCli(['merchants', 'list', '--json'], env);
    expect(through.code).toBe(0);
    expect(JSON.parse(through.stdout)).toHaveLength(1);
  }, 120_000);
});
