/**
 * Checks the importer's memory claim: a catalog file of about 100 MB is imported by a
 * process whose V8 heap is capped well below 100 MB (--max-old-space-size, default 96), and
 * the peak heap is reported.
 *
 *   npx tsx bench/search/import-heap.ts                    # PGlite in a temporary data directory
 *   DATABASE_URL=postgresql://… npx tsx bench/search/import-heap.ts
 *   COUNT=130000 HEAP_MB=96 …
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { synthesize } from './synthesize.js';

const here = dirname(fileURLToPath(import.meta.url));
const COUNT = Number(process.env.COUNT ?? 130_000);
const HEAP_MB = Number(process.env.HEAP_MB ?? 96);

if (process.argv[2] === '--child') {
  const { openDatabase } = await import('../../apps/gateway/src/db/database.js');
  const { importCatalog } = await import('../../apps/gateway/src/catalog/import/catalog-importer.js');
  const url = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const db = await openDatabase(url ? { url } : { dataDir: mkdtempSync(join(tmpdir(), 'gw-import-heap-')) });
  await db.migrate();
  let peak = 0;
  let peakRss = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  };
  const timer = setInterval(sample, 20);
  const started = performance.now();
  const { imported } = await importCatalog(db, `heap-${Date.now()}`, process.argv[3]!);
  clearInterval(timer);
  sample();
  console.log(JSON.stringify({ imported, seconds: (performance.now() - started) / 1000, peakHeapMb: peak / 1e6, peakRssMb: peakRss / 1e6 }));
  if (url) await db.prisma.merchant.deleteMany({ where: { id: { startsWith: 'heap-' } } });
  await db.close();
} else {
  const file = resolve(here, 'results', `catalog-${COUNT}.ndjson`);
  if (!existsSync(file)) await synthesize(COUNT, file);
  const mb = statSync(file).size / 1e6;
  console.log(`file: ${COUNT} products, ${mb.toFixed(0)} MB; child heap capped at ${HEAP_MB} MB (--max-old-space-size)`);
  const child = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', fileURLToPath(import.meta.url), '--child', file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) {
    console.log(`import FAILED with the heap capped at ${HEAP_MB} MB (exit ${child.status})`);
    process.exit(1);
  }
  const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { imported: number; seconds: number; peakHeapMb: number; peakRssMb: number };
  console.log(`imported ${r.imported} products in ${r.seconds.toFixed(1)} s; peak V8 heap ${r.peakHeapMb.toFixed(0)} MB (file ${mb.toFixed(0)} MB), peak RSS ${r.peakRssMb.toFixed(0)} MB`);
}
