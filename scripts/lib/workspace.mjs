// What `npm start`, `pnpm gateway` and scripts/pnpm.mjs share: the pinned pnpm, installing the
// workspace when needed, and building the gateway only when its sources changed since dist/.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cliPath = join(root, 'apps', 'gateway', 'dist', 'cli.js');

const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const execPath = process.env.npm_execpath ?? '';
const viaPnpm = /pnpm/.test(execPath) && existsSync(execPath);

/**
 * Runs the pinned pnpm (the one running us when called through pnpm, else through npx); returns its
 * exit code. `quiet`: its output (npx's, pnpm's, what it runs) is kept in order in a temporary file
 * and written to stderr only when it fails — a start that works prints only the gateway's lines.
 */
export function pnpm(args, { stdout = 'inherit', quiet = false } = {}) {
  const script = /\.(c|m)?js$/.test(execPath);
  const [command, prefix] = viaPnpm
    ? [script ? process.execPath : execPath, script ? [execPath] : []]
    : [process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--yes', packageManager]];
  const dir = quiet ? mkdtempSync(join(tmpdir(), 'gateway-pnpm-')) : undefined;
  const output = dir ? openSync(join(dir, 'output.log'), 'w') : undefined;
  const stdio = output === undefined ? ['inherit', stdout, 'inherit'] : ['ignore', output, output];
  const result = spawnSync(command, [...prefix, ...args], { cwd: root, stdio, shell: process.platform === 'win32' });
  if (dir) {
    closeSync(output);
    if (result.status !== 0) process.stderr.write(readFileSync(join(dir, 'output.log')));
    rmSync(dir, { recursive: true, force: true });
  }
  if (result.error) {
    console.error(`error: cannot run ${packageManager}: ${result.error.message}`);
    process.exit(1);
  }
  return result.status ?? 1;
}

/** Whether node_modules is at least as new as the lockfile. */
export function installed() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  if (!existsSync(marker)) return false;
  return statSync(marker).mtimeMs >= statSync(join(root, 'pnpm-lock.yaml')).mtimeMs;
}

/** Installs the workspace when needed: one line of ours, pnpm's output only if the install fails. */
export function ensureInstalled() {
  if (installed()) return;
  const why = existsSync(join(root, 'node_modules')) ? 'pnpm-lock.yaml changed' : 'first start';
  process.stderr.write(`installing the dependencies (${why})…\n`);
  const status = pnpm(['install', '--frozen-lockfile'], { quiet: true });
  if (status !== 0) process.exit(status);
}

/** What the gateway's build reads: its sources, its workspace dependencies' sources, and the contract. */
const SOURCES = [
  'apps/gateway/src',
  'apps/gateway/prisma',
  'apps/gateway/package.json',
  'apps/gateway/tsup.config.ts',
  'packages/webhooks/src',
  'packages/webhooks/package.json',
  'openapi/src',
  'openapi/acp',
  'openapi/ucp',
  'openapi/package.json',
];
/** What the built gateway needs besides its own dist/. */
const BUILT = ['packages/webhooks/dist/index.cjs', 'openapi/dist/openapi.json'];

function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file changes its directory
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry.name)));
  }
  return latest;
}

/** Why the gateway must be built, or undefined when dist/ is newer than every source (a few milliseconds to find out). */
export function buildNeeded() {
  const built = statSync(cliPath, { throwIfNoEntry: false });
  if (!built) return 'not built yet';
  if (BUILT.some((path) => !existsSync(join(root, path)))) return 'a workspace package is not built';
  const changed = SOURCES.find((path) => newest(join(root, path)) > built.mtimeMs);
  return changed ? `${changed} changed` : undefined;
}

/** Builds the gateway (and what it depends on) when a source changed; turbo's output only on failure, on stderr. */
export function ensureBuilt() {
  const why = buildNeeded();
  if (!why) return;
  process.stderr.write(`building the gateway (${why})…\n`);
  const status = pnpm(['exec', 'turbo', 'run', 'build', '--filter=@commerce-gateway/gateway', '--output-logs=errors-only', '--log-prefix=none'], { quiet: true });
  if (status !== 0) process.exit(status);
}
