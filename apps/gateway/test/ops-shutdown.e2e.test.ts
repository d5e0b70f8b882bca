/**
 * Graceful shutdown of the real CLI process (`serve`): on SIGTERM it stops
 * accepting, lets the request in flight finish, closes everything and exits 0;
 * a request that never finishes is cut after the grace period; a second signal
 * exits 1 at once. Needs the built CLI (`pnpm build`, as `pnpm test` does).
 */
import { mkdtempSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHUTDOWN_GRACE_MS } from '../src/server.js';
import { exitOf, runCli, startServe } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase | undefined;
let env: Record<string, string>;
let key: string;

beforeAll(async () => {
  const testDb = await createTestDatabase();
  if (testDb.url) {
    db = testDb;
    env = { DATABASE_URL: testDb.url };
  } else {
    await testDb.close(); // the CLI gets its own embedded database on disk
    env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-shutdown-')) };
  }
  env = { ...env, GATEWAY_ENV: 'sandbox', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' };
  expect((await runCli(['merchants', 'create', 'shutdown-shop'], env)).code).toBe(0);
  const created = await runCli(['keys', 'create', '--merchant', 'shutdown-shop', '--env', 'sandbox'], env);
  expect(created.code).toBe(0);
  key = created.stdout.trim().split('\n').at(-1)!;
});
afterAll(async () => {
  await db?.close();
});

async function serve() {
  const started = await startServe(env);
  let stderr = '';
  started.child.stderr!.on('data', (chunk) => (stderr += chunk));
  return { ...started, stderr: () => stderr };
}

/**
 * A POST whose body arrives in two parts: the request is in flight until `finish()` sends the rest.
 * It asks `Expect: 100-continue`, so `sent` resolves once the server has taken the request (its
 * '100 Continue' comes as it hands the request to the app) and half the body is on its way: no sleep.
 */
function slowEmit(url: string): { sent: Promise<void>; finish(): void; response: Promise<{ status: number; body: string }>; req: ClientRequest } {
  const body = JSON.stringify({ event_type: 'order.created', payload: { note: 'sent slowly' } });
  const half = Math.floor(body.length / 2);
  const req = request(`${url}/webhooks/emit`, {
    method: 'POST',
    headers: { 'X-ACP-API-Key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  req.flushHeaders();
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  const sent = new Promise<void>((resolve) => req.once('continue', () => req.write(body.slice(0, half), () => resolve())));
  return { sent, finish: () => req.end(body.slice(half)), response, req };
}

/** Whether a new connection to the port is refused now (polled for: see vitest.config.ts). */
function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise<boolean>((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

const logLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; [key: string]: unknown });

describe('SIGTERM', () => {
  it('stops accepting, lets the request in flight finish, closes everything and exits 0', async () => {
    const server = await serve();
    const slow = slowEmit(server.url);
    await slow.sent; // the server is now reading the body
    server.child.kill('SIGTERM');
    await expect.poll(() => refusesConnections(server.url)).toBe(true);
    expect(server.child.exitCode).toBe(null); // still finishing the request
    slow.finish();
    const reply = await slow.response;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ delivered: null, payload: { type: 'order.created' } });
    expect(await exitOf(server.child)).toBe(0);

    const lines = logLines(server.stderr());
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down: no new connections; waiting for requests in flight', 'shut down']));
    expect(lines.find((l) => l.msg === 'request' && l.operation === 'emitWebhook')).toMatchObject({ status: 200, method: 'POST', path: '/webhooks/emit', merchant: 'shutdown-shop' });
    expect(server.stderr()).not.toContain(key);
  });

  it('cuts a request that does not finish within the grace period, then exits 0', async () => {
    const server = await serve();
    const stuck = slowEmit(server.url);
    stuck.response.catch(() => {}); // its connection is dropped
    await stuck.sent;
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await exitOf(server.child)).toBe(0); // a drain that never cut would hang to the test's limit
    // Not cut before the grace period: a lower bound, which a busy machine only makes easier to meet.
    expect(Date.now() - started).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS - 500);
    await expect(stuck.response).rejects.toThrow();
  }, 120_000);

  it('exits 1 at once on a second signal', async () => {
    const server = await serve();
    const stuck = slowEmit(server.url);
    stuck.response.catch(() => {});
    await stuck.sent;
    server.child.kill('SIGTERM');
    await expect.poll(() => server.stderr()).toContain('shutting down: no new connections'); // the first signal is being handled
    const started = Date.now();
    server.child.kill('SIGINT');
    expect(await exitOf(server.child)).toBe(1);
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS / 2); // at once: not after the 10 s drain
    expect(server.stderr()).toContain('second signal: exiting without waiting');
  });
});
