/**
 * bench:engine against a baseline, in alternating rounds: the engine of another checkout
 * (BENCH_BASELINE, with this file's engine-latency.ts copied in) and this one's, each round in fresh
 * processes, baseline first then this one, ROUNDS times. Prints each round's p50 / p95 / p99 of
 * `search` and the median of the per-round ratios baseline ÷ now.
 *
 *   BENCH_BASELINE=/work/wt-before BENCH_PRODUCTS=1000000 ROUNDS=3 node bench/search/engine-baseline.mjs
 *
 * BENCH_STATE=1 is set: the index is restored from results/engine-N.v8 (written by the first run of
 * either), so both engines answer over the very same analyses and vector codes.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const baseline = process.env.BENCH_BASELINE;
if (!baseline) throw new Error('BENCH_BASELINE: the checkout to compare with');
const rounds = Number(process.env.ROUNDS ?? 3);

function run(root) {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench/search/engine-latency.ts')], {
    cwd: join(root, 'bench'),
    env: { ...process.env, BENCH_STATE: '1' },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const found = /search p50 ([\d.]+) \/ p95 ([\d.]+) \/ p99 ([\d.]+) ms/.exec(out);
  if (!found) throw new Error(`no figures in:\n${out}`);
  return found.slice(1).map(Number);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratios = [[], [], []];
for (let round = 1; round <= rounds; round++) {
  const before = run(resolve(baseline));
  const now = run(resolve(here, '../..'));
  before.forEach((b, i) => ratios[i].push(b / now[i]));
  console.log(`round ${round}: baseline p50/p95/p99 ${before.join(' / ')} ms; now ${now.join(' / ')} ms`);
}
console.log(`baseline ÷ now (median of ${rounds} rounds): p50 ${median(ratios[0]).toFixed(2)}×, p95 ${median(ratios[1]).toFixed(2)}×, p99 ${median(ratios[2]).toFixed(2)}×`);
