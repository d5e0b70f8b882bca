#!/usr/bin/env node
// Fails when committed generated code is stale: rebuilds the contract bundle,
// regenerates the SDK, the gateway's ACP types and the console's admin client, and asks git whether
// anything under the generated folders changed. The fix is always the same command: `pnpm generate`.
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const GENERATED = ['packages/sdk/src/generated', 'apps/gateway/src/acp/generated', 'apps/gateway/console/src/generated'];

const run = spawnSync('pnpm', ['exec', 'turbo', 'run', 'generate', '--filter=@commerce-gateway/sdk', '--filter=@commerce-gateway/gateway', '--output-logs=errors-only'], {
  cwd: root,
  stdio: 'inherit',
});
if (run.status !== 0) {
  console.error('error: regenerating the generated code failed');
  process.exit(run.status ?? 1);
}
const changes = execFileSync('git', ['status', '--porcelain', '--', ...GENERATED], { cwd: root, encoding: 'utf8' }).trim();
if (changes) {
  console.error(`error: generated code is stale:\n${changes}\nRun \`pnpm generate\` and commit the result.`);
  process.exit(1);
}
console.log('generated code is up to date');
