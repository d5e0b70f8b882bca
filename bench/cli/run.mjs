// What an operator CLI command costs without a running server, on the embedded default (PGlite in
// DATA_DIR): the whole process, from `node cli.js …` to its exit, wall-clock.
//
//   node bench/cli/run.mjs                                   (the built apps/gateway/dist/cli.js)
//   BASELINE_CLI=/path/to/other/apps/gateway/dist/cli.js node bench/cli/run.mjs
//
// With a baseline, each round runs every command with both builds, one after the other, the order
// alternating from round to round (a shared, noisy machine drifts: pairs measured together compare
// fairly); it prints each command's medians and the ratio current / baseline. A baseline build runs
// from where it was built (it needs its package's node_modules): build it in a worktree of its own,
// e.g. `git worktree add /tmp/base <commit> && cd /tmp/base && pnpm install && pnpm generate && pnpm build`.
//
// Each build gets a data directory of its own, prepared by that build (migrated; a merchant, a key
// and the demo catalog), so the two never share a database of another schema. No server runs: the
// data directories are fresh, and DATABASE_URL is unset for every command.
//
// Settings: BENCH_ROUNDS (default 7), BENCH_COMMANDS (`;`-separated command lines replacing the
// default set), BENCH_KEEP=1 keeps the data directories.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const CURRENT = resolve(process.env.CLI ?? join(here, '../../apps/gateway/dist/cli.js'));
const BASELINE = process.env.BASELINE_CLI ? resolve(process.env.BASELINE_CLI) : undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const DEMO_CATALOG = resolve(here, '../../apps/gateway/data/demo/products.ndjson');
const MERCHANT = 'bench';

/** The commands timed: reads an operator runs often, the migration check alone, and a refusal (exit 1). */
const COMMANDS = process.env.BENCH_COMMANDS
  ? process.env.BENCH_COMMANDS.split(';').map((line) => line.trim().split(/\s+/)).filter((args) => args[0])
  : [
      ['merchants', 'list'],
      ['keys', 'list'],
      ['orders', 'list', '--merchant', MERCHANT],
      ['webhooks', 'list'],
      ['migrate'],
      ['orders', 'list', '--merchant', 'no-such-merchant'],
    ];

for (const cli of [CURRENT, BASELINE].filter(Boolean)) {
  if (!existsSync(cli)) {
    console.error(`no CLI at ${cli}: build first (pnpm build)`);
    process.exit(1);
  }
}

const env = (dataDir) => {
  const { DATABASE_URL: _url, ...rest } = process.env;
  return { ...rest, DATA_DIR: dataDir, GATEWAY_ENV: 'development', LOG_LEVEL: 'warn' };
};

function run(cli, dataDir, args) {
  const t0 = performance.now();
  const result = spawnSync(process.execPath, [cli, ...args], { env: env(dataDir), encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (result.error) throw result.error;
  return { ms, status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function prepare(cli, label) {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-cli-${label}-`));
  for (const args of [
    ['migrate'],
    ['merchants', 'create', MERCHANT],
    ['keys', 'create', '--merchant', MERCHANT],
    ['catalog', 'import', DEMO_CATALOG, '--merchant', MERCHANT],
  ]) {
    const result = run(cli, dataDir, args);
    if (result.status !== 0) {
      console.error(`preparing ${label} (${args.join(' ')}) failed: ${result.stderr.trim()}`);
      process.exit(1);
    }
  }
  return dataDir;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const builds = [{ label: 'current', cli: CURRENT }, ...(BASELINE ? [{ label: 'baseline', cli: BASELINE }] : [])];
console.log(`CLI commands without a server, embedded database; ${ROUNDS} rounds${BASELINE ? ', alternating with the baseline' : ''}`);
for (const build of builds) console.log(`  ${build.label.padEnd(8)} ${build.cli}`);
for (const build of builds) build.dataDir = prepare(build.cli, build.label);

const times = new Map(COMMANDS.map((args) => [args.join(' '), Object.fromEntries(builds.map((b) => [b.label, []]))]));
const statuses = new Map();
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? [...builds].reverse() : builds;
  for (const args of COMMANDS) {
    const name = args.join(' ');
    for (const build of order) {
      const result = run(build.cli, build.dataDir, args);
      times.get(name)[build.label].push(result.ms);
      const seen = statuses.get(`${name}|${build.label}`);
      statuses.set(`${name}|${build.label}`, seen ?? result.status);
      if (seen !== undefined && seen !== result.status) console.warn(`  ${build.label}: "${name}" exited ${result.status}, before ${seen}`);
    }
  }
  process.stdout.write(`  round ${round + 1}/${ROUNDS} done\n`);
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log('');
console.log(['command'.padEnd(44), 'exit', 'current (median, min-max)'.padEnd(28), ...(BASELINE ? ['baseline (median, min-max)'.padEnd(28), 'ratio'] : [])].join('  '));
for (const [name, byBuild] of times) {
  const row = [name.padEnd(44), String(statuses.get(`${name}|current`)).padEnd(4)];
  for (const build of builds) {
    const values = byBuild[build.label];
    row.push(`${seconds(median(values))} (${seconds(Math.min(...values))}-${seconds(Math.max(...values))})`.padEnd(28));
  }
  if (BASELINE) {
    if (statuses.get(`${name}|current`) !== statuses.get(`${name}|baseline`)) row.push(`(baseline exited ${statuses.get(`${name}|baseline`)})`);
    row.push(`${(median(byBuild.current) / median(byBuild.baseline)).toFixed(2)}×`);
  }
  console.log(row.join('  '));
}
if (BASELINE) {
  const all = (label) => [...times.values()].flatMap((byBuild) => byBuild[label]);
  console.log(`\nevery command: current ${seconds(median(all('current')))}, baseline ${seconds(median(all('baseline')))} (median), ratio ${(median(all('current')) / median(all('baseline'))).toFixed(2)}×`);
}

if (process.env.BENCH_KEEP !== '1') for (const build of builds) rmSync(build.dataDir, { recursive: true, force: true });
else for (const build of builds) console.log(`kept ${build.label}'s data directory: ${build.dataDir}`);
