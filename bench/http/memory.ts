/**
 * bench/http memory: resident memory after start-up with a large catalog, and what the catalog
 * read model costs. A synthesized catalog (BENCH_PRODUCTS, default 50,000) is imported into a
 * fresh embedded database (or the database of DATABASE_URL); then the gateway is started exactly
 * as a team runs it — `node apps/gateway/dist/cli.js serve` (built first), GATEWAY_ENV=production —
 * and its resident memory is read from the operating system once start-up has settled; then
 * `?q=` is served one request at a time (p50, p95, p99): one query repeated (answered from the
 * index's memory of answers) and distinct queries (each ranked anew; BENCH_SLOWEST=N names the N slowest). A second child loads the
 * same catalog step by step (under tsx) to part the read model's cost from the search index's.
 *
 *   pnpm --filter @commerce-gateway/bench bench:http:memory
 *   DATABASE_URL=postgresql://… pnpm --filter @commerce-gateway/bench bench:http:memory
 */
import { execFileSync, fork, spawn } from 'node:child_process';
import { appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KeyService } from '../../apps/gateway/src/auth/key-service.js';
import { KeyStore } from '../../apps/gateway/src/auth/key-store.js';
import { importCatalog } from '../../apps/gateway/src/catalog/import/catalog-importer.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { synthesize } from '../search/synthesize.js';
import { oneAtATime, type Latencies } from '../support/one-at-a-time.js';

const count = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '../..');
const file = await synthesize(count, resolve(here, '../search/results', `catalog-${count}.ndjson`));
const url = process.env.DATABASE_URL;
// BENCH_DATA_DIR: keep the embedded database there (and reuse it on the next run) instead of a temporary one.
const keep = process.env.BENCH_DATA_DIR;
const dataDir = url ? undefined : (keep ?? mkdtempSync(join(tmpdir(), 'bench-http-memory-')));
const merchant = `mem${count}`;

const db = await openDatabase({ url, dataDir: dataDir ?? null });
await db.migrate();
if ((await db.prisma.product.count({ where: { merchantId: merchant } })) !== count) {
  const started = performance.now();
  await importCatalog(db, merchant, file);
  console.log(`imported ${count} products in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const { key } = await new KeyService(new KeyStore(db)).create({ merchantIds: [merchant], env: 'production', scopes: ['*'], tier: 'enterprise', rpm: 1e9, rpd: 1e9 });
await db.close();

// One directory of catalog snapshots for `serve` and the parts child (the default is relative to the working directory).
const snapshots = process.env.CATALOG_SNAPSHOT_DIR ?? join(tmpdir(), '.data-snapshots');
const env = { PUBLIC_BASE_URL: 'http://127.0.0.1', ...process.env, GATEWAY_ENV: 'production', LOG_LEVEL: 'warn', PORT: '0', CATALOG_SNAPSHOT_DIR: snapshots, ...(dataDir ? { DATA_DIR: dataDir } : {}) };

/** Resident memory of a process, in MB (Linux /proc; elsewhere `ps`). */
function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  } catch {
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
  }
}

/** Titles' word pairs of the synthesized catalog (words `from` and `from + 1`): distinct queries, each ranked anew. */
function distinctQueries(from = 0): string[] {
  // The file's first 8 MB (at a million products the whole file is more than a string can hold): its first 5,000 lines.
  const head = Buffer.alloc(8 * 1024 * 1024);
  const fd = openSync(file, 'r');
  const length = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const lines = head.toString('utf8', 0, length).split('\n', 5_001).slice(0, 5_000);
  const titles = lines.filter((line) => line.endsWith('}')).map((line) => (JSON.parse(line) as { title: string }).title);
  return [...new Set(titles.map((title) => title.split(/[ ,]+/).slice(from, from + 2).join(' ').toLowerCase()))];
}

async function distinctOneAtATime(base: string, queries: string[], report = true): Promise<Latencies> {
  const times: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    const response = await fetch(`${base}/acp/products?q=${encodeURIComponent(q)}`, { headers: { 'X-ACP-API-Key': key } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`q=${q}: ${response.status}`);
    times.push(performance.now() - started);
  }
  const slowest = report ? Number(process.env.BENCH_SLOWEST ?? 0) : 0; // e.g. 12: which queries make the tail
  if (slowest > 0) {
    const ranked = queries.map((q, i) => [q, times[i]!] as const).sort((a, b) => b[1] - a[1]);
    console.log(`slowest: ${ranked.slice(0, slowest).map(([q, ms]) => `${JSON.stringify(q)} ${ms.toFixed(1)} ms`).join(', ')}`);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  return { n: times.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

// `serve` as a team runs it: the built CLI, in its own process.
execFileSync(process.execPath, [join(root, 'scripts/pnpm.mjs'), 'exec', 'turbo', 'run', 'build', '--filter=@commerce-gateway/gateway', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
const started = performance.now();
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []; // a V8 CPU profile of `serve`, written at exit
const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []; // e.g. `--trace-gc`: node's own flags for `serve`
const serve = spawn(process.execPath, [...profile, ...flags, join(root, 'apps/gateway/dist/cli.js'), 'serve'], { cwd: tmpdir(), env, stdio: ['ignore', 'pipe', 'inherit'] });
process.once('exit', () => serve.kill()); // never left running by a failure below
const base = await new Promise<string>((done, fail) => {
  let out = '';
  const echo = process.env.BENCH_SERVE_STDOUT; // a file that gets serve's standard output (with BENCH_NODE_FLAGS=--trace-gc, say)
  serve.stdout.on('data', (chunk: Buffer) => {
    if (echo) appendFileSync(echo, chunk);
    out += chunk.toString();
    const found = /listening on (http:\/\/\S+)/.exec(out);
    if (found) done(found[1]!);
  });
  serve.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${out}`)));
});
const readyMs = performance.now() - started;
await new Promise((settle) => setTimeout(settle, 5_000)); // start-up's garbage collected, nothing else running
const rss = rssMb(serve.pid!);
const repeated = `${base}/acp/products?q=comfortable%20chair%20for%20reading`;
await oneAtATime(repeated, { 'X-ACP-API-Key': key }, 1_000);
const same = await oneAtATime(repeated, { 'X-ACP-API-Key': key }, Number(process.env.BENCH_SECONDS ?? 5) * 1000);
// Ranking's code warmed first (by other queries: titles' second and third words), as in a server that has been up for a while.
const measured = distinctQueries();
await distinctOneAtATime(base, distinctQueries(1).filter((q) => !measured.includes(q)).slice(0, 100), false);
const distinct = await distinctOneAtATime(base, measured);
const rssAfter = rssMb(serve.pid!);
serve.kill('SIGTERM');
await new Promise((exited) => serve.once('exit', exited));

console.log(`bench/http memory — ${count} products, database ${url ? 'postgresql' : 'pglite'}, \`gateway serve\` (dist, GATEWAY_ENV=production)`);
console.log(`serve: listening after ${(readyMs / 1000).toFixed(1)} s; RSS ${rss.toFixed(0)} MB settled after start-up (goal ≤ 600), ${rssAfter.toFixed(0)} MB after the queries below`);
const fmt = (l: Latencies) => `p50 ${l.p50.toFixed(2)} ms  p95 ${l.p95.toFixed(2)} ms  p99 ${l.p99.toFixed(2)} ms`;
console.log(`GET /acp/products?q= one at a time, one query repeated (${same.n} requests): ${fmt(same)}`);
console.log(`GET /acp/products?q= one at a time, ${distinct.n} distinct queries: ${fmt(distinct)} (goal p99 ≤ 15 at 200,000 products, ≤ 40 at 1,000,000)`);

function parts(): Promise<Record<string, any>> {
  const process_ = fork(resolve(here, 'memory-child.ts'), { execArgv: ['--import', 'tsx', '--expose-gc'], env: { ...env, MEMORY_MERCHANT: merchant }, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  return new Promise((done, fail) => {
    process_.once('message', (message) => {
      process_.removeAllListeners('exit');
      process_.kill();
      done(message as Record<string, any>);
    });
    process_.once('exit', (code) => fail(new Error(`memory child exited with ${code}`)));
  });
}

const loaded = await parts();
console.log(
  `parts (heap used after GC): services ${loaded.baseHeapMb!.toFixed(0)} MB; read model + search index +${loaded.loadedHeapMb!.toFixed(0)} MB ` +
    `(RSS +${loaded.loadedRssMb!.toFixed(0)} MB); of which the read model's own objects (products, variants, images; the text is shared with the index) ${loaded.readModelHeapMb!.toFixed(0)} MB`,
);
if (dataDir && !keep) rmSync(dataDir, { recursive: true, force: true });
