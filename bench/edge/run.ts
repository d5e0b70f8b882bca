/**
 * bench/edge: what the edge costs. Throughput and p99 of an authenticated,
 * rate-limited, validated GET /acp/products/{id} beside the same route with the
 * edge removed, measured in one run. Goal: the edge keeps ≥ 2/3 of the throughput.
 *
 *   npx tsx bench/edge/run.ts            (PGlite in memory)
 *   DATABASE_URL=postgresql://… REDIS_URL=redis://… npx tsx bench/edge/run.ts
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { load, row } from '../support/load.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const ready = await new Promise<{ full: string; bare: string; key: string; database: string; rateLimits: string }>((resolve) => child.once('message', resolve as never));
const path = '/acp/products/10219178';

console.log(`bench/edge — ${seconds} s per run, 16 connections, database ${ready.database}, rate-limit store ${ready.rateLimits}`);
await load(`${ready.bare}${path}`, { seconds: 2 }); // warm-up both
await load(`${ready.full}${path}`, { seconds: 2, headers: { 'X-ACP-API-Key': ready.key } });
const bare = await load(`${ready.bare}${path}`, { seconds });
const full = await load(`${ready.full}${path}`, { seconds, headers: { 'X-ACP-API-Key': ready.key } });
console.log(row('bare Express route', bare));
console.log(row('full edge (auth, limits, validation)', full));
const ratio = full.rps / bare.rps;
console.log(`throughput ratio edge/bare: ${ratio.toFixed(2)} (goal ≥ 0.67)   p99 ${bare.p99} → ${full.p99} ms`);
child.disconnect();
child.kill();
