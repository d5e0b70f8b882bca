/**
 * A product change at scale: how long until an edit of one product (its title's first word and its
 * price) is in the catalog read model and the embedded search index, in this process, with the
 * catalog of BENCH_PRODUCTS products (default 200,000) loaded as `serve` loads it (from its
 * snapshot, or the database). The edit goes through the read model's `apply`, as a committed
 * change heard from the database does; the product rows are read from the database each time.
 *
 *   DATABASE_URL=postgresql://… BENCH_PRODUCTS=200000 pnpm --filter @commerce-gateway/bench bench:change
 *
 * Prints each change's time and the first search after it. The catalog is synthesized and imported
 * first when the database does not hold it (as bench:http:memory does).
 */
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { importCatalog } from '../../apps/gateway/src/catalog/import/catalog-importer.js';
import type { CatalogRow } from '../../apps/gateway/src/catalog/catalog-rows.js';
import { loadConfig } from '../../apps/gateway/src/config/config.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { buildServices } from '../../apps/gateway/src/services.js';
import { synthesize } from './synthesize.js';

const count = Number(process.env.BENCH_PRODUCTS ?? 200_000);
const changes = Number(process.env.BENCH_CHANGES ?? 12);
const merchant = `mem${count}`;
const here = fileURLToPath(new URL('.', import.meta.url));
process.env.CATALOG_SNAPSHOT_DIR ??= join(tmpdir(), '.data-snapshots');
const config = loadConfig();
const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
await db.migrate();
if ((await db.prisma.product.count({ where: { merchantId: merchant } })) !== count) {
  await importCatalog(db, merchant, await synthesize(count, resolve(here, 'results', `catalog-${count}.ndjson`)));
}
const services = buildServices(db, { config, logger: pino({ level: 'warn' }) });
let started = performance.now();
await services.catalog.warmUp();
console.log(`bench/search product change — ${count} products; loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// The edit, made where the read model reads the changed rows: the title's first word becomes another product's, the price moves.
const readModel = services.catalog.readModel as unknown as { store: { catalogRowsById(m: string, ids: readonly string[]): Promise<CatalogRow[]> } };
const read = readModel.store.catalogRowsById.bind(readModel.store);
let edits = 0;
let title = '';
readModel.store.catalogRowsById = async (m, ids) =>
  (await read(m, ids)).map((row) => {
    const words = row.product.title.split(' ');
    words[0] = ['Lerhamn', 'Billy', 'Kallax', 'Poäng'][edits++ % 4]!;
    title = words.join(' ');
    return { ...row, product: { ...row.product, title, price: row.product.price + 1 } };
  });

const ids = services.catalog.readModel.columnsOf(merchant)!.ids;
const times: number[] = [];
// How long the event loop is held at a time while the changes run (and, after a first load from the database, the snapshot is written).
const held = monitorEventLoopDelay({ resolution: 10 });
held.enable();
for (let i = 0; i < changes; i++) {
  const id = ids[(i * 7_919) % ids.length]!;
  started = performance.now();
  await services.catalog.readModel.apply({ merchantId: merchant, ids: [id] });
  const changeMs = performance.now() - started;
  started = performance.now();
  // The product's new title asked for: the product is among the answers (the change is searchable).
  const found = await services.catalog.search(merchant, { q: title, page: 1, pageSize: 50 } as never, 'bench');
  const seen = found.items.some((item) => item.id === id && item.title === title);
  times.push(changeMs);
  console.log(`change ${i + 1}: ${changeMs.toFixed(0)} ms; the first search after it ${(performance.now() - started).toFixed(0)} ms, ${seen ? 'finds' : 'does NOT find'} the product by its new title`);
}
times.sort((a, b) => a - b);
held.disable();
console.log(
  `a product's change, ${changes} one after another: median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, slowest ${times[times.length - 1]!.toFixed(0)} ms; ` +
    `the event loop held at most ${(held.max / 1e6).toFixed(0)} ms at a time meanwhile`,
);
// The read model's close waits for a snapshot file still being written (after a first load from the database).
await services.catalog.close();
await db.close();
process.exit(0); // the read model's change listener and its healing timers must not keep the benchmark up
