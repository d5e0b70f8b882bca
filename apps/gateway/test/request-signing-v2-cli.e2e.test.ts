/**
 * `gateway keys create --signing v2` and `gateway keys signing <id> <scheme>`: the CLI as an
 * operator runs it (a separate process), then the key's scheme as the gateway applies it over HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../src/auth/request-signature.js';
import { runCli } from './support/cli.js';
import { call } from './support/http.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { startTestGateway } from './support/test-gateway.js';

const CLI_TIMEOUT_MS = 120_000;
const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

describe('keys and their signature scheme', { timeout: CLI_TIMEOUT_MS }, () => {
  let db: TestDatabase;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    db = await createTestDatabase();
    if (db.url) {
      env = { DATABASE_URL: db.url };
    } else {
      await db.close();
      env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-signing-')) };
    }
    expect((await runCli(['merchants', 'create', 'sig-shop'], env)).code).toBe(0);
  }, CLI_TIMEOUT_MS);
  afterAll(async () => {
    if (db?.url) await db.close();
  });

  it('creates a key that requires v2, lists it, switches it back and forth', async () => {
    const created = await runCli(['keys', 'create', '--merchant', 'sig-shop', '--signing', 'v2', '--json'], env);
    expect(created.code).toBe(0);
    const { id, signing_secret: secret } = JSON.parse(created.stdout) as { id: string; signing_secret: string };
    expect(secret).toMatch(/^ss_/);

    const scheme = async () => {
      const list = JSON.parse((await runCli(['keys', 'list', '--json'], env)).stdout) as { id: string; signing: boolean; signature_scheme: string | null }[];
      return list.find((k) => k.id === id);
    };
    expect(await scheme()).toMatchObject({ signing: true, signature_scheme: 'v2' });
    expect((await runCli(['keys', 'list'], env)).stdout).toMatch(new RegExp(`${id}.*\\sv2\\s`));

    expect((await runCli(['keys', 'signing', id, 'body'], env)).code).toBe(0);
    expect(await scheme()).toMatchObject({ signature_scheme: 'body' });
    const back = await runCli(['keys', 'signing', id, 'v2'], env);
    expect(back.stdout).toMatch(/X-Request-Signature \(v2\) only/);
    expect(await scheme()).toMatchObject({ signature_scheme: 'v2' });
  });

  it('switches a running gateway (on PostgreSQL: another process) at its next request', async (ctx) => {
    if (!db.url) return ctx.skip(); // the embedded database is one process's: the CLI would go through its socket
    const gateway = await startTestGateway({ db });
    try {
      const created = JSON.parse((await runCli(['keys', 'create', '--merchant', 'sig-shop', '--signing', 'body', '--json'], env)).stdout) as { id: string; key: string; signing_secret: string };
      const spec = () => call(`${gateway.url}/checkout_sessions/cs_nothing/cancel`, { method: 'POST', headers: { 'X-ACP-API-Key': created.key, Signature: signBody(Buffer.alloc(0), created.signing_secret), Timestamp: new Date().toISOString() } });
      expect((await spec()).status).toBe(404); // past the signature: no such session
      expect((await runCli(['keys', 'signing', created.id, 'v2'], env)).code).toBe(0);
      await expect.poll(async () => (await spec()).status, { interval: 100 }).toBe(401);
    } finally {
      await gateway.close();
    }
  });

  it.each([
    [['keys', 'create', '--merchant', 'sig-shop', '--signing', 'v3'], /^error: --signing must be one of body, v2, not "v3"/],
    [['keys', 'signing', 'key_doesnotexist', 'v2'], /^error: no key "key_doesnotexist"/],
    [['keys', 'signing', 'key_x', 'both'], /^error: <scheme> must be one of body, v2/],
  ])('%j fails with one line', async (args, stderr) => {
    const result = await runCli(args, env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(stderr);
  });

  it('refuses to set a scheme on a key that signs nothing', async () => {
    const plain = await runCli(['keys', 'create', '--merchant', 'sig-shop', '--json'], env);
    const { id } = JSON.parse(plain.stdout) as { id: string };
    const result = await runCli(['keys', 'signing', id, 'v2'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/has no signing secret/);
    expect(lastLine(result.stderr)).not.toMatch(/at .*\.js/); // one line, no stack
  });
});
