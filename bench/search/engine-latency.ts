/**
 * The embedded engine alone at scale, in this process (no database, no HTTP): a synthesized catalog
 * streamed into an EmbeddedSearchEngine with the local embedder's vectors, then distinct queries
 * (titles' word pairs, as bench:http:memory sends) spelled, embedded and searched one at a time.
 *
 *   BENCH_PRODUCTS=1000000 npx tsx bench/search/engine-latency.ts
 *   node --cpu-prof --import tsx bench/search/engine-latency.ts        # where a query's time goes
 *
 * The products' vectors are cached beside the catalog (results/vectors-N.f32), so a second run
 * skips embedding. Prints the load time and p50 / p95 / p99 of `search` alone and of spell + embed
 * + search, over 2,000 distinct queries after 300 warm-up ones.
 */
import { closeSync, createReadStream, existsSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sharedLocalEmbedder } from '../../apps/gateway/src/search/embedders/local/local-embedder.js';
import { CatalogColumns, type ColumnsState } from '../../apps/gateway/src/search/catalog-columns.js';
import type { IndexState } from '../../apps/gateway/src/search/embedded/index-state.js';
import { EmbeddedSearchEngine } from '../../apps/gateway/src/search/embedded/embedded-engine.js';
import { embeddingText, toSearchDocument } from '../../apps/gateway/src/search/product-text.js';
import type { SearchDocument } from '../../apps/gateway/src/search/search-engine.js';
import { synthesize } from './synthesize.js';

const here = dirname(fileURLToPath(import.meta.url));
const COUNT = Number(process.env.BENCH_PRODUCTS ?? 200_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2_000);
const MERCHANT = 'bench';
const file = resolve(here, 'results', `catalog-${COUNT}.ndjson`);
if (!existsSync(file)) await synthesize(COUNT, file);

const embedder = sharedLocalEmbedder();
const dims = embedder.dimensions;
const cacheFile = resolve(here, 'results', `vectors-${COUNT}-${embedder.id.replace(/[^\w.-]+/g, '_')}.f32`);
const cached = existsSync(cacheFile) ? new Float32Array(readFileSync(cacheFile).buffer) : undefined;
const made = cached ? undefined : new Float32Array(COUNT * dims);

const engine = new EmbeddedSearchEngine({ dimensions: dims });
// BENCH_STATE=1: the index as arrays is cached too (results/engine-N.v8): a second run restores it instead of analysing every product.
const stateFile = resolve(here, 'results', `engine-${COUNT}.v8`);
const started = performance.now();
let row = 0;
let how = cached ? 'cached vectors' : 'embedded';
if (process.env.BENCH_STATE && existsSync(stateFile)) {
  const { index, columns } = deserialize(readFileSync(stateFile)) as { index: IndexState; columns: ColumnsState };
  engine.restore(MERCHANT, index, CatalogColumns.restore(columns));
  row = columns.ids.length;
  how = 'restored';
} else {
  const load = engine.load(MERCHANT, { sharedColumns: false });
  let batch: SearchDocument[] = [];
  const flush = async () => {
    const vectors = cached ? batch.map((_, i) => cached.subarray((row + i) * dims, (row + i + 1) * dims)) : await embedder.embed(batch.map((d) => embeddingText(d)));
    batch.forEach((doc, i) => {
      doc.vector = vectors[i];
      made?.set(vectors[i]!, (row + i) * dims);
    });
    load.add(batch);
    row += batch.length;
    batch = [];
  };
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line) continue;
    batch.push(toSearchDocument(MERCHANT, JSON.parse(line)));
    if (batch.length === 2_000) await flush();
  }
  await flush();
  await load.finish();
  if (made) writeFileSync(cacheFile, new Uint8Array(made.buffer));
  if (process.env.BENCH_STATE) writeFileSync(stateFile, serialize({ index: engine.state(MERCHANT), columns: engine.snapshot(MERCHANT)!.columns.state() }));
}
const loadMs = performance.now() - started;
globalThis.gc?.();
const heap = process.memoryUsage();
console.log(
  `${row} products loaded in ${(loadMs / 1000).toFixed(1)} s (${how}); RSS ${(heap.rss / 2 ** 20).toFixed(0)} MB, heap ${(heap.heapUsed / 2 ** 20).toFixed(0)} MB, external ${((heap.external + heap.arrayBuffers) / 2 ** 20).toFixed(0)} MB`,
);

/** Titles' word pairs (words `from` and `from + 1`) of the file's first 8 MB: distinct queries. */
function distinctQueries(from: number): string[] {
  const head = Buffer.alloc(8 * 1024 * 1024);
  const fd = openSync(file, 'r');
  const length = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const titles = head
    .toString('utf8', 0, length)
    .split('\n')
    .filter((l) => l.endsWith('}'))
    .map((l) => (JSON.parse(l) as { title: string }).title);
  return [...new Set(titles.map((t) => t.split(/[ ,]+/).slice(from, from + 2).join(' ').toLowerCase()))];
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${pct(sorted, 50).toFixed(1)} / p95 ${pct(sorted, 95).toFixed(1)} / p99 ${pct(sorted, 99).toFixed(1)} ms`;
};

async function run(queries: string[]): Promise<{ search: number[]; total: number[]; slow: [string, number][] }> {
  const search: number[] = [];
  const total: number[] = [];
  const slow: [string, number][] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const spelled = engine.spell(MERCHANT, q);
    const vector = await embedder.embedQuery(spelled);
    const t1 = performance.now();
    await engine.search({ merchantId: MERCHANT, text: q, vector, filters: {}, offset: 0, limit: 20 });
    const t2 = performance.now();
    search.push(t2 - t1);
    total.push(t2 - t0);
    slow.push([q, t2 - t1]);
  }
  slow.sort((a, b) => b[1] - a[1]);
  return { search, total, slow: slow.slice(0, Number(process.env.BENCH_SLOWEST ?? 0)) };
}

await run(distinctQueries(1).slice(0, 300));
const measured = await run(distinctQueries(0).slice(0, QUERIES));
console.log(`${measured.search.length} distinct queries: search ${fmt(measured.search)}; spell + embed + search ${fmt(measured.total)}`);
for (const [q, ms] of measured.slow) console.log(`  ${ms.toFixed(1)} ms  ${q}`);
