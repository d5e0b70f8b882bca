/**
 * bench/edge: what the edge costs. Throughput and p99 of an authenticated,
 * rate-limited, validated GET /acp/products/{id} beside the same route with the
 * edge removed, measured in one run. Goal: the edge keeps ≥ 2/3 of the throughput.
 *
 * The two servers are measured in alternating rounds (bare, edge, bare, edge, …) and
 * the medians compared, so that a slow moment of a shared machine does not land on
 * one side only.
 *
 *   npx tsx bench/edge/run.ts            (PGlite in memory)
 *   DATABASE_URL=postgresql://… REDIS_URL=redis://… npx tsx bench/edge/run.ts
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { load, row, type LoadResult } from '../support/load.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const ready = await new Promise<{ full: string; bare: string; key: string; database: string; rateLimits: string }>((resolve) => child.once('message', resolve as never));
const path = '/acp/products/10219178';
const edgeHeaders = { 'X-ACP-API-Key': ready.key };

console.log(`bench/edge — ${rounds} alternating rounds of ${seconds} s, 16 connections, database ${ready.database}, rate-limit store ${ready.rateLimits}`);
await load(`${ready.bare}${path}`, { seconds: 2 }); // warm-up both
await load(`${ready.full}${path}`, { seconds: 2, headers: edgeHeaders });
const bare: LoadResult[] = [];
const full: LoadResult[] = [];
for (let round = 0; round < rounds; round++) {
  bare.push(await load(`${ready.bare}${path}`, { seconds }));
  full.push(await load(`${ready.full}${path}`, { seconds, headers: edgeHeaders }));
}
const median = (results: LoadResult[]): LoadResult => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)]!;
const [bareMedian, fullMedian] = [median(bare), median(full)];
console.log(row('bare Express route (median)', bareMedian));
console.log(row('full edge (median)', fullMedian));
console.log(`rounds, req/s: bare ${bare.map((r) => r.rps.toFixed(0)).join(' ')} · edge ${full.map((r) => r.rps.toFixed(0)).join(' ')}`);
const ratio = fullMedian.rps / bareMedian.rps;
console.log(`throughput ratio edge/bare: ${ratio.toFixed(2)} (goal ≥ 0.67)   p99 ${bareMedian.p99} → ${fullMedian.p99} ms`);

// One connection, one request at a time: what the edge adds to each request, free of how
// concurrent requests happen to share the database (Prisma batches findUnique calls made in the
// same tick, which favours whichever server lets requests meet).
const bareAlone = await load(`${ready.bare}${path}`, { seconds, connections: 1 });
const fullAlone = await load(`${ready.full}${path}`, { seconds, connections: 1, headers: edgeHeaders });
const perRequest = (r: LoadResult) => 1000 / r.rps;
console.log(row('bare Express route, 1 connection', bareAlone));
console.log(row('full edge, 1 connection', fullAlone));
console.log(
  `one connection: bare ${perRequest(bareAlone).toFixed(2)} ms, edge ${perRequest(fullAlone).toFixed(2)} ms a request — the edge adds ${(perRequest(fullAlone) - perRequest(bareAlone)).toFixed(2)} ms (ratio ${(fullAlone.rps / bareAlone.rps).toFixed(2)})`,
);
child.disconnect();
child.kill();
