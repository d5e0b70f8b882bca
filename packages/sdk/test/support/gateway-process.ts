/**
 * The real gateway, as an operator runs it: the built CLI (`apps/gateway/dist/cli.js`) in its
 * own process, on the embedded database (PGlite) in a temporary DATA_DIR. turbo builds the
 * gateway before this package's `test` task (packages/sdk/turbo.json).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const GATEWAY_CLI = join(REPO_ROOT, 'apps/gateway/dist/cli.js');

/** Settings that would move the gateway off its embedded defaults are dropped. */
const NOT_EMBEDDED = ['DATABASE_URL', 'REDIS_URL', 'SEARCH_ENGINE', 'MEILISEARCH_URL', 'MEILISEARCH_API_KEY', 'REQUIRE_REQUEST_SIGNING', 'BASIC_AUTH', 'ALLOWED_ORIGINS', 'HOST', 'PORT'];

function gatewayEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of NOT_EMBEDDED) delete env[name];
  return { ...env, GATEWAY_ENV: 'development', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
}

export function assertGatewayBuilt(): void {
  if (!existsSync(GATEWAY_CLI)) {
    throw new Error(`${GATEWAY_CLI} is missing: build the gateway first (npx pnpm@12.21.0 exec turbo run build --filter=@commerce-gateway/gateway), or run the tests through turbo (pnpm test)`);
  }
}

/** Runs one CLI command to completion (`keys create …`); rejects on a non-zero exit. */
export function runCli(args: string[], dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GATEWAY_CLI, ...args], { env: gatewayEnv(dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`gateway ${args.join(' ')} exited with ${code}: ${stderr}`))));
  });
}

export interface ServingGateway {
  url: string;
  stdout: () => string;
  stop: () => Promise<void>;
}

/** `serve`; resolves once it prints `listening on http://…`. */
export function startServe(dataDir: string): Promise<ServingGateway> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GATEWAY_CLI, 'serve'], { env: gatewayEnv(dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve({ url: match[1]!, stdout: () => stdout, stop: () => stop(child) });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (process.env.LOG_LEVEL) process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`gateway serve exited with ${code} before listening: ${stderr}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('close', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
