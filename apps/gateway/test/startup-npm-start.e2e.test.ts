/**
 * `npm start` as an operator runs it at a terminal: a busy port or a data directory already
 * served is one line and a non-zero exit before anything slow; when ready, one block on stdout
 * (logs on stderr); Ctrl-C — SIGINT to the whole foreground process group, npm included — stops
 * the server cleanly and removes its pid and socket files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/db/paths.js';

const root = join(packageRoot, '..', '..');
const started: ChildProcess[] = [];

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `npm start` in its own process group, as a terminal runs a foreground job. */
function npmStart(env: Record<string, string>): Run {
  const child = spawn('npm', ['start'], { cwd: root, detached: true, env: { ...process.env, LOG_LEVEL: 'info', GATEWAY_ENV: 'sandbox', DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  // 'close': every process holding the pipes (npm, the script, the server) is gone.
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => stdout, stderr: () => stderr, closed };
}

/** Waits for `condition`; `timeoutMs` is a limit for a busy machine, not a figure asserted. */
const until = (condition: () => boolean, timeoutMs: number) => expect.poll(condition, { timeout: timeoutMs, interval: 100 }).toBe(true);

afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('npm start', { timeout: 60_000 }, () => {
  it('says in one line, within seconds, that the port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const run = npmStart({ PORT: String(port), DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-start-busy-')) });
      const { code } = await run.closed;
      expect(code).not.toBe(0);
      expect(run.stderr()).toContain(`error: PORT ${port} is already in use on 127.0.0.1 (set PORT to another port)\n`);
      expect(run.stderr()).not.toMatch(/building|turbo/);
      // Refused before any work: no build ran (above), and the command ended by itself (closed).
    } finally {
      blocker.close();
    }
  });

  it('prints one block when ready, refuses a second start on the same data directory, and stops cleanly on Ctrl-C', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-start-'));
    const port = await freePort();
    const run = npmStart({ PORT: String(port), DATA_DIR: dataDir });
    await until(() => run.stdout().includes('Ctrl-C stops it'), 45_000);
    const block = run.stdout().slice(run.stdout().indexOf('Commerce Gateway'));
    expect(block).toMatch(
      new RegExp(`^Commerce Gateway \\(sandbox\\) listening on http://127\\.0\\.0\\.1:${port} with the embedded database in .*\\n  API reference: http://127\\.0\\.0\\.1:${port}/docs\\n  Console:       http://127\\.0\\.0\\.1:${port}/console\\n  CLI commands .*\\n  Ctrl-C stops it; logs go to stderr\\n`),
    );
    expect(run.stdout()).not.toContain('"level"'); // logs are on stderr
    // Flushed before the block is printed; the two pipes may still reach this process in either order.
    await until(() => run.stderr().includes('gateway started'), 5_000);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const serverPid = Number(readFileSync(join(dataDir, 'gateway.pid'), 'utf8'));
    expect(existsSync(join(dataDir, 'gateway.sock'))).toBe(true);

    const second = npmStart({ PORT: String(await freePort()), DATA_DIR: dataDir });
    const refused = await second.closed;
    expect(refused.code).not.toBe(0);
    expect(second.stderr()).toContain(`error: a gateway (process ${serverPid}) already serves the embedded database in ${dataDir}`);

    process.kill(-run.child.pid!, 'SIGINT'); // Ctrl-C: the terminal signals the whole foreground group
    await run.closed;
    expect(run.stderr()).toMatch(/"msg":"shut down"/);
    expect(run.stderr()).not.toContain('second signal');
    expect(() => process.kill(serverPid, 0)).toThrow();
    expect(existsSync(join(dataDir, 'gateway.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'gateway.sock'))).toBe(false);
  });
});
