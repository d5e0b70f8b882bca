/**
 * Search at scale: a 50,000-product catalog synthesized from the demo catalog.
 *
 *   npx tsx bench/search/run.ts            # embedded database (PGlite) in a temporary data directory
 *   DATABASE_URL=postgresql://… npx tsx bench/search/run.ts   # a fresh database on that PostgreSQL server
 *   COUNT=20000 DURATION=5 CONCURRENCY=16 … to change the size, the HTTP run's seconds and connections
 *
 * Prints: import time (and peak heap), index build time, start-up time of `serve` with that
 * catalog and its resident memory, p50/p99 in-process latency of keyword, filtered and hybrid
 * queries, and HTTP throughput of GET /acp/products?q=.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalogService } from '../../apps/gateway/src/catalog/build-catalog-search.js';
import { importCatalog } from '../../apps/gateway/src/catalog/import/catalog-importer.js';
import { KeyService } from '../../apps/gateway/src/auth/key-service.js';
import { KeyStore } from '../../apps/gateway/src/auth/key-store.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { createTestDatabase } from '../../apps/gateway/test/support/test-database.js';
import { deriveVariants, type JudgedQuery } from '../relevance/variants.js';
import { synthesize } from './synthesize.js';

const here = dirname(fileURLToPath(import.meta.url));
const COUNT = Number(process.env.COUNT ?? 50_000);
const DURATION = Number(process.env.DURATION ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const MERCHANT = 'bench';

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function database(): Promise<{ env: Record<string, string>; url?: string; dataDir?: string; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!server) {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-search-bench-'));
    return { env: { DATA_DIR: dataDir }, dataDir, drop: async () => {} };
  }
  process.env.TEST_DATABASE_URL = server;
  const test = await createTestDatabase(); // a fresh database on that server, dropped at the end
  return { env: { DATABASE_URL: test.url! }, url: test.url!, drop: () => test.close() };
}

function queries(file: string): string[] {
  // The judged queries and their typo, prefix and constraint variants (bench/relevance/variants.ts).
  const judged = (JSON.parse(readFileSync(resolve(here, '../relevance/queries.json'), 'utf8')) as { queries: JudgedQuery[] }).queries;
  const demo = readFileSync(resolve(here, '../../apps/gateway/data/demo/products.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; price: number });
  const relevance = [...judged, ...deriveVariants(judged, demo)].map((q) => q.text);
  const titles = readFileSync(file, 'utf8').split('\n', 4000).filter(Boolean).map((line) => (JSON.parse(line) as { title: string }).title);
  const fragments = titles.filter((_, i) => i % 20 === 0).map((t) => t.split(/[ ,]+/).slice(1, 3).join(' ').toLowerCase());
  return [...relevance, ...fragments, 'white', 'something to keep my coffee hot on the commute', 'comfortable chair for a small flat'];
}

async function main(): Promise<void> {
  const file = resolve(here, 'results', `catalog-${COUNT}.ndjson`);
  if (!existsSync(file)) await synthesize(COUNT, file);
  const db = await database();
  console.log(`catalog: ${COUNT} products (${file}), database: ${db.url ? 'PostgreSQL' : 'PGlite (embedded)'}, ${process.version}`);

  // 1. Import, as `catalog import` does (validate, embed, write in one transaction), sampling the heap.
  let handle = await openDatabase(db.url ? { url: db.url } : { dataDir: db.dataDir! });
  await handle.migrate();
  let peakHeap = 0;
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 50);
  const heapBefore = process.memoryUsage().heapUsed;
  let started = performance.now();
  const { imported } = await importCatalog(handle, MERCHANT, file);
  const importMs = performance.now() - started;
  clearInterval(sampler);
  const fileMb = readFileSync(file).length / 1e6;
  console.log(`import:       ${imported} products, ${fileMb.toFixed(0)} MB, ${(importMs / 1000).toFixed(1)} s (goal ≤ 60 s); peak heap ${(peakHeap / 1e6).toFixed(0)} MB (${((peakHeap - heapBefore) / 1e6).toFixed(0)} MB above the start)`);

  // 2. Index build from the database (stored vectors, nothing re-embedded).
  const memBefore = process.memoryUsage();
  // As `serve` builds it: the read model hears changes (and so answers product reads from memory).
  const catalog = buildCatalogService(handle, { listen: (channel, handlers) => handle.listen(channel, handlers) });
  started = performance.now();
  const stats = await catalog.warmUp();
  const buildMs = performance.now() - started;
  const memAfter = process.memoryUsage();
  console.log(`index build:  ${stats?.products} products from the database in ${ms(buildMs)} (${stats?.embedded} embedded); heap +${((memAfter.heapUsed - memBefore.heapUsed) / 1e6).toFixed(0)} MB, array buffers +${((memAfter.arrayBuffers - memBefore.arrayBuffers) / 1e6).toFixed(0)} MB`);

  // 3. In-process latency: the engine with the query embedder, no HTTP, no product fetch.
  const texts = queries(file);
  const search = catalog.searchIndex;
  const engine = search.indexer.engine;
  const categories = ['chairs', 'sofas', 'beds', 'tables', 'bookcases', 'outdoor', 'wardrobes'];
  const kinds: Record<string, (text: string, i: number) => Promise<unknown>> = {
    keyword: (text) => engine.search({ merchantId: MERCHANT, text, filters: {}, offset: 0, limit: 10 }),
    filtered: (text, i) => search.search(MERCHANT, text, { category: categories[i % categories.length], minPrice: 20, maxPrice: 400 }, { offset: 0, limit: 10 }),
    hybrid: (text) => search.search(MERCHANT, text, {}, { offset: 0, limit: 10 }),
    'hybrid + facets': (text) => search.search(MERCHANT, text, {}, { offset: 0, limit: 10 }, { facets: ['category', 'brand', 'price'] }),
    'hybrid + products (service)': (text) => catalog.search(MERCHANT, { q: text, page: 1, pageSize: 10 }, 'bench'),
  };
  for (const [kind, run] of Object.entries(kinds)) {
    for (let i = 0; i < 50; i++) await run(`${texts[i % texts.length]!} warm`, i); // not the measured texts: the index remembers answers
    const times: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < texts.length; i++) {
        const t = performance.now();
        await run(round === 0 ? texts[i]! : `${texts[i]!} ${round}`, i);
        times.push(performance.now() - t);
      }
    }
    times.sort((a, b) => a - b);
    console.log(`latency ${kind.padEnd(28)} p50 ${ms(pct(times, 50))}  p99 ${ms(pct(times, 99))}  (${times.length} queries)${kind === 'hybrid' ? '  goal p99 ≤ 20 ms' : ''}`);
  }
  const keys = new KeyService(new KeyStore(handle));
  const { key } = await keys.create({ merchantIds: [MERCHANT], env: 'development', scopes: ['*'], tier: 'enterprise', rpm: 1e9, rpd: 1e9 });
  await catalog.close();
  await handle.close();

  // 4. Start-up of `serve` with this catalog, in its own process.
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'serve.ts')], {
    env: { ...process.env, ...db.env, PORT: '0', GATEWAY_ENV: 'development', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buffer = '';
  const nextLine = () =>
    new Promise<string>((resolveLine, reject) => {
      const check = () => {
        const line = lines.shift();
        if (line !== undefined) return resolveLine(line);
        setTimeout(check, 20);
      };
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      check();
    });
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      lines.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  const boot = JSON.parse(await nextLine()) as { url: string; startGatewayMs: number; uptimeMs: number; rssMb: number; heapUsedMb: number; arrayBuffersMb: number };
  console.log(`start-up:     startGateway ${ms(boot.startGatewayMs)} (migrate check, index from the database, listen); ${ms(boot.uptimeMs)} since the process started (goal ≤ 5 s)`);
  console.log(`memory:       serve RSS ${boot.rssMb.toFixed(0)} MB after start-up (heap ${boot.heapUsedMb.toFixed(0)} MB, array buffers ${boot.arrayBuffersMb.toFixed(0)} MB)`);

  // 5. HTTP throughput of GET /acp/products?q= against that process.
  const deadline = performance.now() + DURATION * 1000;
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const text = texts[n++ % texts.length]!;
        const t = performance.now();
        const response = await fetch(`${boot.url}/acp/products?q=${encodeURIComponent(text)}`, { headers: { 'X-ACP-API-Key': key } });
        await response.arrayBuffer();
        if (response.status !== 200) errors++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  console.log(`HTTP:         ${(latencies.length / DURATION).toFixed(0)} requests/s with ${CONCURRENCY} connections for ${DURATION} s (client in another process on the same 2 cores); p50 ${ms(pct(latencies, 50))}, p99 ${ms(pct(latencies, 99))}; ${errors} non-200`);
  child.kill('SIGTERM');
  const end = await nextLine().catch(() => undefined);
  if (end) console.log(`memory:       serve RSS ${(JSON.parse(end) as { rssMbAtEnd: number }).rssMbAtEnd.toFixed(0)} MB after the HTTP run`);
  await new Promise((r) => child.once('exit', r));
  await db.drop();
}

await main();
