/**
 * Ctrl-C and SIGTERM stop the gateway when its output goes to a pipe — `npm start 2>&1 | tee
 * gateway.log`, a process supervisor — also when the pipe's reader is gone (tee is in the same
 * foreground group: Ctrl-C ends it first). The server's last log lines then meet a broken pipe;
 * it must still exit within 5 s and free its port (it used to hang in pino's exit-time flush,
 * ignoring every signal but SIGKILL). Needs the built CLI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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

/** Resolves with the milliseconds it took `pid` to be gone, or rejects after `timeoutMs`. */
async function goneWithin(pid: number, timeoutMs: number): Promise<number> {
  const began = Date.now();
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return Date.now() - began;
    }
    if (Date.now() - began > timeoutMs) throw new Error(`process ${pid} still runs ${timeoutMs} ms after the signal`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function portRefuses(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

/** The reader of the child's stdout and stderr goes away: the next write to either is a broken pipe. */
function closeReaders(child: ChildProcess): void {
  child.stdout?.destroy();
  child.stderr?.destroy();
}

describe('serve with piped stdio', { timeout: 60_000 }, () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`exits 0 within 5 s on ${signal} while its output is read`, async () => {
      const server = await startServe({ ...env, ...database() });
      let stderr = '';
      server.child.stderr!.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => server.child.on('exit', (code) => resolve(code)));
      server.child.kill(signal);
      expect(await goneWithin(server.child.pid!, 5_000)).toBeLessThan(5_000);
      expect(await exited).toBe(0);
      expect(await portRefuses(server.url)).toBe(true);
      expect(stderr).toContain('"msg":"shut down"');
    });

    it(`exits within 5 s on ${signal} once the reader of its output is gone`, async () => {
      const server = await startServe({ ...env, ...database() });
      closeReaders(server.child);
      await new Promise((resolve) => setTimeout(resolve, 100));
      server.child.kill(signal);
      expect(await goneWithin(server.child.pid!, 5_000)).toBeLessThan(5_000);
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
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    const deadline = Date.now() + 60_000;
    while (!stdout.includes('Ctrl-C stops it')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not get ready: ${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    const serverPid = Number(readFileSync(join(dataDir, 'gateway.pid'), 'utf8'));
    closeReaders(child); // tee ended by the Ctrl-C
    process.kill(-child.pid!, 'SIGINT'); // Ctrl-C: the whole foreground group
    expect(await goneWithin(serverPid, 5_000)).toBeLessThan(5_000);
    await goneWithin(child.pid!, 1_000);
    expect(await portRefuses(url)).toBe(true);
  });
});
