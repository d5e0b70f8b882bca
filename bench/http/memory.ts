/**
 * bench/http memory: resident memory after start-up with a large catalog, and what the catalog
 * read model costs. A synthesized catalog (BENCH_PRODUCTS, default 50,000) is imported into a
 * fresh embedded database (or the database of DATABASE_URL), then a child process starts the
 * gateway as `serve` does (startGateway: migrate, load the read model and search index, listen)
 * and reports its memory (then serves `?q=` one request at a time: p50, p95, p99); a second child loads the same catalog step by step to part the read
 * model's cost from the search index's.
 *
 *   pnpm --filter @commerce-gateway/bench bench:http:memory
 *   DATABASE_URL=postgresql://… pnpm --filter @commerce-gateway/bench bench:http:memory
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCatalog } from '../../apps/gateway/src/catalog/import/catalog-importer.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { synthesize } from '../search/synthesize.js';
import { oneAtATime, type Latencies } from '../support/one-at-a-time.js';

const count = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const here = fileURLToPath(new URL('.', import.meta.url));
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
  await importCatalog(db.prisma, merchant, file);
  console.log(`imported ${count} products in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
await db.close();

function child(mode: string, whileRunning?: (message: Record<string, any>) => Promise<void>): Promise<Record<string, any>> {
  const env = { ...process.env, GATEWAY_ENV: 'production', LOG_LEVEL: 'warn', PORT: '0', MEMORY_MODE: mode, MEMORY_MERCHANT: merchant, ...(dataDir ? { DATA_DIR: dataDir } : {}) };
  const process_ = fork(resolve(here, 'memory-child.ts'), { execArgv: ['--import', 'tsx', '--expose-gc'], env, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  return new Promise((done, fail) => {
    process_.once('message', (message) => {
      void (whileRunning?.(message as Record<string, any>) ?? Promise.resolve()).then(
        () => {
          process_.removeAllListeners('exit');
          process_.kill();
          done(message as Record<string, any>);
        },
        fail,
      );
    });
    process_.once('exit', (code) => fail(new Error(`memory child exited with ${code}`)));
  });
}

// `?q=` at this size over HTTP, one request at a time (goal: p99 ≤ 20 ms), once the memory is read.
let latency: Latencies | undefined;
const served = await child('serve', async ({ url: base, key }) => {
  const path = `${base}/acp/products?q=comfortable%20chair%20for%20reading`;
  await oneAtATime(path, { 'X-ACP-API-Key': key }, 1_000);
  latency = await oneAtATime(path, { 'X-ACP-API-Key': key }, Number(process.env.BENCH_SECONDS ?? 5) * 1000);
});
console.log(`bench/http memory — ${count} products, database ${url ? 'postgresql' : 'pglite'}`);
console.log(`serve: ready in ${(served.readyMs! / 1000).toFixed(1)} s; RSS ${served.rssMb!.toFixed(0)} MB (goal ≤ 600), heap used ${served.heapUsedMb!.toFixed(0)} MB, array buffers ${served.arrayBuffersMb!.toFixed(0)} MB`);
console.log(`GET /acp/products?q= one at a time (${latency!.n} requests): p50 ${latency!.p50.toFixed(2)} ms  p95 ${latency!.p95.toFixed(2)} ms  p99 ${latency!.p99.toFixed(2)} ms (goal p99 ≤ 20)`);
const parts = await child('parts');
console.log(
  `parts (heap used after GC): services ${parts.baseHeapMb!.toFixed(0)} MB; read model + search index +${parts.loadedHeapMb!.toFixed(0)} MB ` +
    `(RSS +${parts.loadedRssMb!.toFixed(0)} MB); of which the read model's own objects (products, variants, images; the text is shared with the index) ${parts.readModelHeapMb!.toFixed(0)} MB`,
);
if (dataDir && !keep) rmSync(dataDir, { recursive: true, force: true });
