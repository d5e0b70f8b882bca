#!/usr/bin/env node
// Writes the image's runtime file tree to OUT_DIR — exactly what deploy/Dockerfile copies into the
// image: `pnpm deploy --prod` of the gateway (its package.json `files`: dist, migrations, word vectors,
// the demo catalog; workspace packages injected; production dependencies only). Run after the build.
//
//   node deploy/scripts/image-tree.mjs /app
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = process.argv[2];
if (!out) {
  console.error('usage: node deploy/scripts/image-tree.mjs OUT_DIR');
  process.exit(2);
}
for (const built of ['apps/gateway/dist/cli.js', 'openapi/dist/openapi.json', 'packages/webhooks/dist']) {
  if (!existsSync(join(repo, built))) {
    console.error(`error: ${built} is missing; build first (pnpm build)`);
    process.exit(1);
  }
}
// Replaces an earlier tree, never anything else.
if (existsSync(out) && readdirSync(out).length && !existsSync(join(out, 'dist', 'cli.js'))) {
  console.error(`error: ${resolve(out)} is not empty and holds no earlier image tree; choose an empty or new directory`);
  process.exit(1);
}
rmSync(resolve(out), { recursive: true, force: true });
const pnpmOnPath = spawnSync('pnpm', ['--version'], { encoding: 'utf8' }).status === 0;
const [command, prefix] = pnpmOnPath ? ['pnpm', []] : ['npx', ['--yes', 'pnpm@12.21.0']];
const result = spawnSync(command, [...prefix, '--filter', '@commerce-gateway/gateway', 'deploy', '--prod', resolve(out)], { cwd: repo, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
// What must be there, and what must not (dev tools, sources, tests).
const wanted = ['dist/cli.js', 'prisma/migrations/migration_lock.toml', 'prisma/schema.prisma', 'data/word-vectors', 'node_modules/@commerce-gateway/openapi/dist/openapi.json', 'node_modules/@prisma/client'];
const unwanted = ['src', 'test', 'node_modules/vitest', 'node_modules/prisma', 'node_modules/typescript', 'node_modules/@commerce-gateway/sdk'];
const missing = wanted.filter((path) => !existsSync(join(out, path)));
const extra = unwanted.filter((path) => existsSync(join(out, path)));
if (missing.length || extra.length) {
  console.error(`error: image tree ${missing.length ? `lacks ${missing.join(', ')}` : ''}${extra.length ? ` holds ${extra.join(', ')}` : ''}`);
  process.exit(1);
}
console.log(`image tree written to ${resolve(out)}`);
