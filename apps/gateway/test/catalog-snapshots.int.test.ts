/**
 * Persisted catalog snapshots (src/catalog/snapshots): a catalog loaded from the database is
 * written to a file; the next start loads that file instead, and answers exactly as a load from
 * the database would — products, listings, searches with their scores. A snapshot is used only at
 * the catalog version it was made at: any change but stock (made by whatever wrote it, seen by the
 * database's triggers) makes it stale; a stock change does not, and the stock shown is the
 * database's. A damaged file is refused. Real database (PGlite, or TEST_DATABASE_URL), real files.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogService } from '../src/catalog/build-catalog-search.js';
import type { CatalogService } from '../src/catalog/catalog-service.js';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { CatalogSnapshots } from '../src/catalog/read-model/catalog-snapshots.js';
import type { Product } from '../src/contract/types.js';
import { lazyLocalEmbedder } from '../src/search/embedders/local/local-embedder.js';
import { catalogFile } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const MERCHANT = 'snapshots';
const DEMO = resolve(__dirname, '../data/demo/products.ndjson');
const QUERIES = ['oak bookcase', 'comfortable chair for reading', 'bar stol', 'white wardrobe under 300', 'lamp', 'kitchen trolley'];

let db: TestDatabase;
let dir: string;
const embedder = lazyLocalEmbedder();
const demo = readFileSync(DEMO, 'utf8').trim().split('\n').slice(0, 400);
const ids = demo.map((line) => (JSON.parse(line) as { id: string }).id);

interface Started {
  catalog: CatalogService;
  logs: string[];
}

/** A catalog service as `serve` starts one (read model live, search index fed by it), its log kept. */
async function start(): Promise<Started> {
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line).msg as string) });
  const catalog = buildCatalogService(db, {
    config: { catalogSnapshotDir: dir, catalogSnapshotMinProducts: 1 },
    logger,
    parts: { embedder },
    listen: async () => ({ close: async () => {} }),
  });
  await catalog.warmUp();
  return { catalog, logs };
}

/** Everything a shopper could see of the catalog: every product, a listing page, and each query's hits with scores. */
async function seen(catalog: CatalogService): Promise<unknown> {
  const products = await Promise.all(ids.map((id) => catalog.get(MERCHANT, id)));
  const listing = await catalog.search(MERCHANT, { page: 2, pageSize: 20, facets: ['category', 'price'] }, 'v');
  const searches = [];
  for (const q of QUERIES) {
    const result = await catalog.search(MERCHANT, { q, page: 1, pageSize: 10, facets: ['category'] }, 'v');
    searches.push({ q, total: result.total, items: result.items.map((item) => [item.id, item.similarity_score]), understood: result.query_understanding, facets: result.facets });
  }
  return { products: JSON.parse(JSON.stringify(products)), listing: { ...listing, generated_at: undefined }, searches };
}

async function sql(statement: string): Promise<void> {
  await db.prisma.$executeRawUnsafe(statement);
}

async function version(): Promise<string> {
  const rows = await db.prisma.$queryRawUnsafe<{ version: string }[]>(`SELECT version::text AS version FROM catalog_versions WHERE merchant_id = '${MERCHANT}'`);
  return rows[0]!.version;
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'gw-snapshots-'));
  await db.prisma.merchant.create({ data: { id: MERCHANT, name: 'Snapshots' } }).catch(() => undefined);
  await importCatalog(db, MERCHANT, catalogFile(demo), { embedder });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe('persisted catalog snapshots', () => {
  let fromDatabase: unknown;

  it('writes one after loading from the database, and the next start answers from it exactly as the database load did', async () => {
    const first = await start();
    fromDatabase = await seen(first.catalog);
    await first.catalog.close();
    expect(first.logs).toContain('catalog snapshot written');
    expect(first.logs).not.toContain('catalog loaded from its snapshot');
    expect(readdirSync(dir).filter((name) => name.endsWith('.snapshot'))).toHaveLength(1);

    const second = await start();
    expect(second.logs).toContain('catalog loaded from its snapshot');
    expect(await seen(second.catalog)).toEqual(fromDatabase);
    await second.catalog.close();
  }, 120_000);

  it('stays in use after a stock change, showing the database stock', async () => {
    const before = await version();
    const [id] = ids;
    await sql(`UPDATE variants SET quantity = 7 WHERE merchant_id = '${MERCHANT}' AND product_id = '${id}'`);
    await sql(`UPDATE products SET quantity = 7 WHERE merchant_id = '${MERCHANT}' AND id = '${id}'`);
    expect(await version()).toBe(before);
    const started = await start();
    expect(started.logs).toContain('catalog loaded from its snapshot');
    expect(started.logs).toContain('catalog snapshot: stock changed since it was made');
    const product = (await started.catalog.get(MERCHANT, id!)) as Product;
    expect(product.availability.quantity).toBe(7 * Math.max(1, product.variants.length));
    expect(product.variants.every((variant) => variant.inventory.quantity === 7)).toBe(true);
    await started.catalog.close();
  }, 120_000);

  it('is rejected once anything but stock changed — whatever wrote it — and the new catalog is loaded and persisted', async () => {
    const before = await version();
    const id = ids[1]!;
    await sql(`UPDATE products SET title = 'Renamed walnut bookcase' WHERE merchant_id = '${MERCHANT}' AND id = '${id}'`);
    expect(await version()).not.toBe(before);

    const stale = await start();
    expect(stale.logs).toContain('catalog snapshot is stale; loading the catalog from the database');
    expect(((await stale.catalog.get(MERCHANT, id)) as Product).title).toBe('Renamed walnut bookcase');
    const found = await stale.catalog.search(MERCHANT, { q: 'renamed walnut', page: 1, pageSize: 5 }, 'v');
    expect(found.items[0]?.id).toBe(id);
    await stale.catalog.close();
    expect(stale.logs).toContain('catalog snapshot written');

    const fresh = await start();
    expect(fresh.logs).toContain('catalog loaded from its snapshot');
    expect(((await fresh.catalog.get(MERCHANT, id)) as Product).title).toBe('Renamed walnut bookcase');
    await fresh.catalog.close();
  }, 120_000);

  it('is rejected when made by another embedder', async () => {
    const logs: string[] = [];
    const snapshots = new CatalogSnapshots({ dir, minProducts: 1 }, pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line).reason) }));
    expect(await snapshots.read(MERCHANT, await version(), { id: 'another-embedder', dimensions: embedder.dimensions })).toBeUndefined();
    expect(logs).toContain('made with another embedder');
    expect(await snapshots.read(MERCHANT, await version(), { id: embedder.id, dimensions: embedder.dimensions })).toBeDefined();
  });

  it('is refused when damaged: the catalog loads from the database, as it is', async () => {
    const [file] = readdirSync(dir).filter((name) => name.endsWith('.snapshot'));
    const path = join(dir, file!);
    const bytes = readFileSync(path);
    const middle = Math.floor(statSync(path).size / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    writeFileSync(path, bytes);
    const started = await start();
    expect(started.logs).toContain('catalog snapshot unreadable; removed, loading the catalog from the database');
    expect(started.logs).not.toContain('catalog loaded from its snapshot');
    expect(((await started.catalog.get(MERCHANT, ids[1]!)) as Product).title).toBe('Renamed walnut bookcase');
    await started.catalog.close();

    writeFileSync(path, bytes.subarray(0, 100));
    const truncated = await start();
    expect(truncated.logs).toContain('catalog snapshot unreadable; removed, loading the catalog from the database');
    await truncated.catalog.close();
  }, 120_000);
  it('has a catalog version that every statement changing what products show changes, and stock alone does not', async () => {
    const [a, b] = [ids[2]!, ids[3]!];
    const changes = [
      `UPDATE variants SET title = 'Renamed variant' WHERE merchant_id = '${MERCHANT}' AND product_id = '${a}'`,
      `INSERT INTO images (merchant_id, product_id, position, url) VALUES ('${MERCHANT}', '${a}', 99, 'https://img.example/a.jpg')`,
      `UPDATE images SET alt_text = 'A' WHERE merchant_id = '${MERCHANT}' AND product_id = '${a}' AND position = 99`,
      `DELETE FROM images WHERE merchant_id = '${MERCHANT}' AND product_id = '${a}' AND position = 99`,
      `UPDATE products SET price = price + 1 WHERE merchant_id = '${MERCHANT}' AND id = '${b}'`,
      `UPDATE products SET embedding = NULL WHERE merchant_id = '${MERCHANT}' AND id = '${b}'`,
    ];
    for (const change of changes) {
      const before = await version();
      await sql(change);
      expect(await version(), change).not.toBe(before);
    }
    const before = await version();
    await sql(`UPDATE variants SET quantity = quantity + 1, policy = 'continue' WHERE merchant_id = '${MERCHANT}' AND product_id = '${b}'`);
    await sql(`UPDATE products SET quantity = quantity + 1 WHERE merchant_id = '${MERCHANT}'`);
    await sql(`UPDATE products SET title = title WHERE merchant_id = '${MERCHANT}' AND id = '${b}'`);
    expect(await version()).toBe(before);
  });
});
