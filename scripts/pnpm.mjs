#!/usr/bin/env node
// Lets `npm start` and `npm test` work on a machine with only Node and npm:
// runs the pinned pnpm (from package.json's packageManager) — the one already
// running us when called through pnpm, else through npx — installs the
// workspace when needed, then runs the given pnpm command.
//
//   node scripts/pnpm.mjs gateway serve
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const execPath = process.env.npm_execpath ?? '';
const viaPnpm = /pnpm/.test(execPath) && existsSync(execPath);

function pnpm(args) {
  const [command, prefix] = viaPnpm
    ? [/\.(c|m)?js$/.test(execPath) ? process.execPath : execPath, /\.(c|m)?js$/.test(execPath) ? [execPath] : []]
    : [process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--yes', packageManager]];
  const result = spawnSync(command, [...prefix, ...args], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.error) {
    console.error(`error: cannot run ${packageManager}: ${result.error.message}`);
    process.exit(1);
  }
  return result.status ?? 1;
}

function installed() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  if (!existsSync(marker)) return false;
  return statSync(marker).mtimeMs >= statSync(join(root, 'pnpm-lock.yaml')).mtimeMs;
}

if (!installed()) {
  const status = pnpm(['install', '--frozen-lockfile']);
  if (status !== 0) process.exit(status);
}
process.exit(pnpm(process.argv.slice(2)));
