/**
 * bench/load: throughput and p99 of the gateway's main operations on PostgreSQL,
 * each beside a bare Express 5 handler that returns the same JSON, in one run,
 * with the ratio gateway/bare. The full app: API-key auth, rate limits, contract
 * validation of request and response, the request log's and metrics' hooks, and
 * the real work (queries, search, priced checkout, atomic completion, signing).
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test pnpm --filter @commerce-gateway/bench bench:load
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=16 BENCH_COMPLETE_SESSIONS=3000   (defaults 5, 16, 1500)
 *
 * Without DATABASE_URL it runs on embedded PGlite and says so (figures not comparable).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { OPERATIONS, type LoadOperation, type LoadReady } from './operations.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

interface Figures {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(base: string, op: LoadOperation, ready: LoadReady, options: { seconds: number; sessions?: string[] }): Promise<Figures> {
  const request = op.request(ready);
  const headers = { 'X-ACP-API-Key': ready.key, 'content-type': 'application/json' };
  const sessions = options.sessions ? [...options.sessions] : undefined;
  const result = await autocannon({
    url: base,
    connections,
    ...(sessions ? { amount: sessions.length } : { duration: options.seconds }),
    requests: [
      {
        method: request.method,
        path: request.path,
        headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(sessions ? { setupRequest: (req: autocannon.Request) => ({ ...req, path: op.request({ ...ready, sessionId: sessions.shift() ?? ready.sessionId }).path }) } : {}),
      },
    ],
  });
  return { requests: result.requests.total, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

if (!process.env.DATABASE_URL) console.warn('bench/load: DATABASE_URL is not set — running on embedded PGlite; set it to measure on PostgreSQL');
const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const ready = await new Promise<LoadReady>((resolve, reject) => {
  child.once('message', resolve as never);
  child.once('exit', (code) => reject(new Error(`bench/load server exited with ${code}`)));
});

console.log(`bench/load — ${seconds} s per run, ${connections} connections, database ${ready.database}, rate-limit store ${ready.rateLimits}; complete: ${ready.openSessions.length} sessions each`);
const header = `${'operation'.padEnd(28)} ${'requests'.padStart(8)} ${'req/s'.padStart(7)} ${'p50'.padStart(5)} ${'p99'.padStart(5)}  ${'bare req/s'.padStart(10)} ${'bare p99'.padStart(8)}  ${'ratio'.padStart(5)}  non-2xx/errors`;
console.log(header);
let failures = 0;
let sessions = ready.openSessions;
for (const op of OPERATIONS) {
  let gateway: Figures;
  let bare: Figures;
  if (op.oncePerSession) {
    // Half the sessions warm up, the other half are measured; the bare app gets the same number of requests.
    const half = Math.floor(sessions.length / 2);
    await measure(ready.gateway, op, ready, { seconds, sessions: sessions.slice(0, Math.min(half, 200)) });
    gateway = await measure(ready.gateway, op, ready, { seconds, sessions: sessions.slice(half) });
    bare = await measure(ready.bare, op, ready, { seconds, sessions: sessions.slice(half) });
    sessions = [];
  } else {
    await measure(ready.gateway, op, ready, { seconds: 1 }); // warm-up
    await measure(ready.bare, op, ready, { seconds: 1 });
    gateway = await measure(ready.gateway, op, ready, { seconds });
    bare = await measure(ready.bare, op, ready, { seconds });
  }
  failures += gateway.non2xx + gateway.errors;
  const ratio = gateway.rps / bare.rps;
  console.log(
    `${op.name.padEnd(28)} ${String(gateway.requests).padStart(8)} ${gateway.rps.toFixed(0).padStart(7)} ${String(gateway.p50).padStart(5)} ${String(gateway.p99).padStart(5)}  ${bare.rps.toFixed(0).padStart(10)} ${String(bare.p99).padStart(8)}  ${ratio.toFixed(3).padStart(5)}  ${gateway.non2xx}/${gateway.errors}`,
  );
}
console.log('latencies in ms; ratio = gateway req/s ÷ bare Express req/s for the same route and JSON');
child.disconnect();
child.kill();
process.exit(failures ? 1 : 0);
