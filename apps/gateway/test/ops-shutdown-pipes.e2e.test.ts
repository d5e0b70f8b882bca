/**
 * Ctrl-C and SIGTERM stop the gateway when its output goes to a pipe — `npm start 2>&1 | tee
 * gateway.log`, a process supervisor — also when the pipe's reader is gone (tee is in the same
 * foreground group: Ctrl-C ends it first). The server's last log lines then meet a broken pipe;
 * it must still exit within 5 s and free its port (it used to hang in pino's exit-time flush,
 * ignoring every signal but SIGKILL). Needs the built CLI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/db/paths.js';
import { startServe } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const root = join(packageRoot, '..', '..');
let db: TestDatabase | undefined;
let env: Record<string, string>;
const groups: number[] = [];

beforeAll(async () => {
  const testDb = await createTestDatabase();
  if (testDb.url) db = testDb;
  else await testDb.close(); // serve gets its own embedded database on disk
  env = { GATEWAY_ENV: 'sandbox', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' };
});
afterAll(async () => {
  await db?.close();
});
afterEach(() => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

const database = () => (db ? { DATABASE_URL: db.url! } : { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-pipes-')) });

/** Whether `pid` is gone (signal 0 only asks). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Waits for `pid` to be gone; the limit is the promise these tests name, polled for, not a figure measured. */
const goneWithin = (pid: number, timeoutMs: number) => expect.poll(() => isGone(pid), { timeout: timeoutMs, message: `process ${pid} still runs ${timeoutMs} ms after the signal` }).toBe(true);

async function portRefuses(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

/** The reader of the child's stdout and stderr goes away: the next write to either is a broken pipe. Resolves once both are closed. */
async function closeReaders(child: ChildProcess): Promise<void> {
  const streams = [child.stdout, child.stderr].filter((stream) => stream !== null);
  const closed = streams.map((stream) => (stream.closed ? Promise.resolve() : once(stream, 'close')));
  for (const stream of streams) stream.destroy();
  await Promise.all(closed);
}

describe('serve with piped stdio', { timeout: 60_000 }, () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`exits 0 within 5 s on ${signal} while its output is read`, async () => {
      const server = await startServe({ ...env, ...database() });
      let stderr = '';
      server.child.stderr!.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => server.child.on('exit', (code) => resolve(code)));
      server.child.kill(signal);
      await goneWithin(server.child.pid!, 5_000);
      expect(await exited).toBe(0);
      expect(await portRefuses(server.url)).toBe(true);
      expect(stderr).toContain('"msg":"shut down"');
    });

    it(`exits within 5 s on ${signal} once the reader of its output is gone`, async () => {
      const server = await startServe({ ...env, ...database() });
      await closeReaders(server.child);
      server.child.kill(signal);
      await goneWithin(server.child.pid!, 5_000);
      expect(await portRefuses(server.url)).toBe(true);
    });
  }
});

describe('npm start piped into a reader that Ctrl-C ends', { timeout: 90_000 }, () => {
  it('stops within 5 s: the script and the server are gone and the port is free', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-pipes-start-'));
    // scripts/start.mjs in its own process group, its output piped, as a terminal runs `npm start | tee`.
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      detached: true,
      env: { ...process.env, ...env, DATABASE_URL: '', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    groups.push(child.pid!);
    let stdout = '';
    // Ready when it says so; an exit before that fails at once (the test's limit bounds the rest).
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('Ctrl-C stops it')) resolve();
      });
      child.once('exit', () => reject(new Error(`npm start did not get ready: ${stdout}`)));
    });
    const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    const serverPid = Number(readFileSync(join(dataDir, 'gateway.pid'), 'utf8'));
    await closeReaders(child); // tee ended by the Ctrl-C
    process.kill(-child.pid!, 'SIGINT'); // Ctrl-C: the whole foreground group
    await goneWithin(serverPid, 5_000);
    await goneWithin(child.pid!, 5_000); // the script follows its server: the same promise, not a tighter one
    expect(await portRefuses(url)).toBe(true);
  });
});
