/**
 * bench/http: the gateway's authenticated catalog routes against a bare Express 5 app that
 * serves the same bytes, in alternating rounds of one run (bare, gateway, bare, gateway, …;
 * medians compared), 16 connections; then `?q=` one request at a time (p50, p95, p99).
 *
 *   pnpm bench:http                                     (PGlite in memory, demo catalog)
 *   DATABASE_URL=postgresql://… pnpm bench:http         (PostgreSQL; REDIS_URL for Redis rate limits)
 *   BENCH_PRODUCTS=50000 pnpm bench:http                (a synthesized catalog: memory and q latency at that size)
 *   BENCH_SECONDS=5 BENCH_ROUNDS=3 BENCH_CONNECTIONS=16 BENCH_ROUTES=0,2 (indexes into `routes`)
 *   BENCH_PROFILE=dir                                   (a V8 CPU profile of the server process, written at exit)
 *   BENCH_BASELINE=../other-checkout                     (that checkout's server too: each round runs both
 *                                                        processes' bare and gateway apps, and the paired ratios;
 *                                                        BENCH_BASELINE_DATABASE_URL: its own PostgreSQL database)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { synthesize } from '../search/synthesize.js';
import { load, type LoadResult } from '../support/load.js';
import { oneAtATime } from '../support/one-at-a-time.js';
import { bundleForNode } from '../support/bundle.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const products = process.env.BENCH_PRODUCTS ? Number(process.env.BENCH_PRODUCTS) : undefined;

const routes = [
  { name: 'GET /acp/products/{id}', path: '/acp/products/10219178', goal: 0.5 },
  { name: 'GET /acp/products?category&max_price', path: '/acp/products?category=chairs&max_price=200', goal: 0.4 },
  { name: 'GET /acp/products?q=', path: '/acp/products?q=comfortable%20chair%20for%20reading', goal: 0.35 },
];
const qPath = routes[2]!.path;

const catalog = products ? await synthesize(products, resolve(fileURLToPath(new URL('.', import.meta.url)), '../search/results', `catalog-${products}.ndjson`)) : undefined;

interface Ready {
  full: string; bare: string; key: string; database: string; rateLimits: string; products: number; importedMs: number; env: string;
  memory: { rssMb: number; rssBeforeLoadMb: number; heapUsedMb: number };
}
interface Server { child: ChildProcess; ready: Ready; headers: Record<string, string> }

/** bench/http/server.ts of a checkout, compiled and started; answers once it serves. */
async function start(checkout: string | undefined, env: NodeJS.ProcessEnv): Promise<Server> {
  const entry = checkout ? resolve(checkout, 'bench/http/server.ts') : fileURLToPath(new URL('./server.ts', import.meta.url));
  const child = fork(await bundleForNode(entry, checkout && resolve(checkout)), {
    execArgv: ['--expose-gc', ...(process.env.BENCH_PROFILE && !checkout ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
    stdio: 'inherit',
    env: { ...env, BENCH_PATHS: JSON.stringify(routes.map((r) => r.path)), ...(catalog ? { BENCH_CATALOG: catalog } : {}) },
  });
  const ready = await new Promise<Ready>((done) => child.once('message', done as never));
  return { child, ready, headers: { 'X-ACP-API-Key': ready.key } };
}

const server = await start(undefined, process.env);
const { child, ready, headers } = server;
const baselineDir = process.env.BENCH_BASELINE;
const { DATABASE_URL: _, ...withoutDatabase } = process.env;
const baselineEnv = process.env.BENCH_BASELINE_DATABASE_URL ? { ...withoutDatabase, DATABASE_URL: process.env.BENCH_BASELINE_DATABASE_URL } : withoutDatabase;
const baseline = baselineDir ? await start(baselineDir, baselineEnv) : undefined;
if (baselineDir && process.env.DATABASE_URL && !process.env.BENCH_BASELINE_DATABASE_URL) console.log('BENCH_BASELINE without BENCH_BASELINE_DATABASE_URL: the baseline runs on PGlite');

console.log(`bench/http — ${ready.products} products, database ${ready.database}, rate limits ${ready.rateLimits}, GATEWAY_ENV=${ready.env}; ${rounds} alternating rounds of ${seconds} s, ${connections} connections`);
console.log(`memory after start-up: RSS ${ready.memory.rssMb.toFixed(0)} MB (before the read model and index loaded: ${ready.memory.rssBeforeLoadMb.toFixed(0)} MB), heap used ${ready.memory.heapUsedMb.toFixed(0)} MB`);
/** A server process's CPU time (user + system, µs). */
const cpu = (of: ChildProcess) =>
  new Promise<number>((done) => {
    of.once('message', (m: { cpu: NodeJS.CpuUsage }) => done(m.cpu.user + m.cpu.system));
    of.send('cpu');
  });
/** A load round, with the server's CPU time per request (µs). */
async function measured(url: string, options: Parameters<typeof load>[1], of: ChildProcess = child): Promise<LoadResult & { cpuUs: number }> {
  const before = await cpu(of);
  const result = await load(url, options);
  return { ...result, cpuUs: ((await cpu(of)) - before) / Math.max(1, result.requests) };
}
const median = (results: LoadResult[]): LoadResult => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)]!;
const fmt = (r: LoadResult) => `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(3)} ms`;
console.log(`${'route'.padEnd(38)} ${'bare Express 5'.padEnd(36)} ${'gateway'.padEnd(36)} ratio  goal`);
const only = process.env.BENCH_ROUTES?.split(',').map(Number); // e.g. 0,2: measure these routes only
for (const route of routes.filter((_, i) => !only || only.includes(i))) {
  await load(`${ready.bare}${route.path}`, { seconds: 1, connections }); // warm-up
  await load(`${ready.full}${route.path}`, { seconds: 1, connections, headers });
  if (baseline) await load(`${baseline.ready.full}${route.path}`, { seconds: 1, connections, headers: baseline.headers });
  const bare: (LoadResult & { cpuUs: number })[] = [];
  const full: (LoadResult & { cpuUs: number })[] = [];
  const baseBare: (LoadResult & { cpuUs: number })[] = [];
  const base: (LoadResult & { cpuUs: number })[] = [];
  const thisPair = async () => {
    bare.push(await measured(`${ready.bare}${route.path}`, { seconds, connections }));
    full.push(await measured(`${ready.full}${route.path}`, { seconds, connections, headers }));
  };
  // The baseline's process serves its own bare app too, and its rounds run the same pair: both processes do
  // the same work (a process serving only the gateway ran 5 % faster than the same code beside a bare app).
  const basePair = async () => {
    baseBare.push(await measured(`${baseline!.ready.bare}${route.path}`, { seconds, connections }, baseline!.child));
    base.push(await measured(`${baseline!.ready.full}${route.path}`, { seconds, connections, headers: baseline!.headers }, baseline!.child));
  };
  for (let round = 0; round < rounds; round++) {
    // Which pair goes first alternates: neither gains from its place in the round.
    for (const pair of !baseline ? [thisPair] : round % 2 === 0 ? [thisPair, basePair] : [basePair, thisPair]) await pair();
  }
  const [b, f] = [median(bare), median(full)];
  const failures = full.reduce((n, r) => n + r.non2xx + r.errors, 0);
  const cpuOf = (results: { cpuUs: number }[]) => [...results].map((r) => r.cpuUs).sort((x, y) => x - y)[Math.floor(results.length / 2)]!;
  console.log(`${route.name.padEnd(38)} ${fmt(b)}   ${fmt(f)}   ${(f.rps / b.rps).toFixed(2)}  ≥ ${route.goal}${failures ? `  (${failures} failed)` : ''}`);
  console.log(`${''.padEnd(38)} server CPU a request: bare ${cpuOf(bare).toFixed(0)} µs, gateway ${cpuOf(full).toFixed(0)} µs`);
  if (baseline) {
    // Each round's runs are close in time: their ratios are paired, then the median taken.
    const paired = (ratio: (i: number) => number) => base.map((_, i) => ratio(i)).sort((x, y) => x - y)[Math.floor(base.length / 2)]!.toFixed(2);
    console.log(
      `${'  baseline'.padEnd(38)} ${fmt(median(base))}   ratio to its bare ${paired((i) => base[i]!.rps / baseBare[i]!.rps)} (this checkout ${paired((i) => full[i]!.rps / bare[i]!.rps)}); ` +
        `this / baseline: req/s ${paired((i) => full[i]!.rps / base[i]!.rps)}, CPU a request ${paired((i) => full[i]!.cpuUs / base[i]!.cpuUs)} (baseline ${cpuOf(base).toFixed(0)} µs)`,
    );
  }
}

await oneAtATime(`${ready.full}${qPath}`, headers, 500);
const alone = await oneAtATime(`${ready.full}${qPath}`, headers, seconds * 1000);
console.log(`GET /acp/products?q= one at a time (${alone.n} requests): p50 ${alone.p50.toFixed(2)} ms  p95 ${alone.p95.toFixed(2)} ms  p99 ${alone.p99.toFixed(2)} ms`);
for (const { child: process } of [server, ...(baseline ? [baseline] : [])]) {
  process.disconnect(); // the server exits (writing its CPU profile when asked)
  await new Promise((done) => process.once('exit', done));
}
