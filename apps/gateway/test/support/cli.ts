import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/db/paths.js';

export const CLI = join(packageRoot, 'dist', 'cli.js');

/**
 * Every child this file's tests start, with whether a test (rather than a beforeAll) started it:
 * test/support/end-children.ts ends a test's children after it (passed, failed or timed out) and
 * every other one after the file, so that no `serve` outlives the test that needed it.
 */
export const children = new Map<ChildProcess, { startedByTest: boolean }>();
export const testRunning = { now: false };

function spawnCli(args: string[], env: Record<string, string | undefined>, cwd?: string): ChildProcess & { stdout: NonNullable<ChildProcess['stdout']>; stderr: NonNullable<ChildProcess['stderr']> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
  children.set(child, { startedByTest: testRunning.now });
  child.on('close', () => children.delete(child));
  return child as ChildProcess & { stdout: NonNullable<ChildProcess['stdout']>; stderr: NonNullable<ChildProcess['stderr']> };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (`pnpm gateway …` without the build step) and collects its output; `cwd` defaults to the test's. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, { cwd }: { cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env, cwd);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `serve` and resolves once it says it is listening. */
export function startServe(env: Record<string, string | undefined>): Promise<{ child: ChildProcess; stdout: () => string; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(['serve'], env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve({ child, stdout: () => stdout, url: match[1]! });
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.on('close', (code) => resolve(code));
  });
}

/** Kills (SIGKILL) the children `which` picks that are still running, and waits for them to be gone. */
export async function endChildren(which: (startedByTest: boolean) => boolean): Promise<void> {
  const ending = [...children].filter(([child, { startedByTest }]) => which(startedByTest) && child.exitCode === null && child.signalCode === null);
  for (const [child] of ending) child.kill('SIGKILL');
  await Promise.all(ending.map(([child]) => exitOf(child)));
}
