import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/db/paths.js';

export const CLI = join(packageRoot, 'dist', 'cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (`pnpm gateway …` without the build step) and collects its output. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
    const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('close', (code) => resolve(code));
  });
}
