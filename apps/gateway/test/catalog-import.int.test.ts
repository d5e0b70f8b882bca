import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportError, importCatalog } from '../src/catalog/import/catalog-importer.js';
import { CatalogStore } from '../src/catalog/catalog-store.js';
import { catalogFile, product } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let store: CatalogStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = new CatalogStore(db);
});
afterAll(() => db?.close());

async function snapshot(merchantId: string) {
  const { ids } = await store.filter(merchantId, {}, { offset: 0, limit: 1000 });
  return store.getMany(merchantId, ids);
}

describe('catalog import', () => {
  it('imports NDJSON and upserts by id', async () => {
    await importCatalog(db, 'm1', catalogFile([product({ id: 'a', price: 1 }), product({ id: 'b', price: 2 })]));
    await importCatalog(db, 'm1', catalogFile([product({ id: 'b', price: 3, title: 'B2' }), product({ id: 'c' })]));
    const products = await snapshot('m1');
    // ordered by title: "B2", "Product a", "Product c"
    expect(products.map((p) => [p.id, p.price])).toEqual([
      ['b', 3],
      ['a', 1],
      ['c', 10],
    ]);
  });

  it('imports a JSON array and fills what the contract lets a file leave out', async () => {
    const minimal = { id: 'min', title: 'Minimal', price: 4, currency: 'EUR', availability: { status: 'in_stock', quantity: 3, policy: 'continue' } };
    await importCatalog(db, 'm2', catalogFile([JSON.stringify([minimal])], 'catalog.json'));
    expect(await store.get('m2', 'min')).toEqual({
      id: 'min',
      title: 'Minimal',
      description: '',
      vendor: '',
      category: '',
      price: 4,
      currency: 'EUR',
      availability: { status: 'limited', quantity: 3, policy: 'continue' },
      tags: [],
      attributes: {},
      images: [],
      variants: [],
    });
  });

  it('derives stock status from quantities, and a product availability from its variants', async () => {
    const p = product({ id: 'multi' });
    p.variants = [
      { ...p.variants[0]!, sku: 'v1', inventory: { status: 'in_stock', quantity: 0, policy: 'deny' } },
      { ...p.variants[0]!, sku: 'v2', inventory: { status: 'out_of_stock', quantity: 4, policy: 'deny' } },
    ];
    await importCatalog(db, 'm3', catalogFile([p]));
    const stored = await store.get('m3', 'multi');
    expect(stored?.variants.map((v) => v.inventory.status)).toEqual(['out_of_stock', 'limited']);
    expect(stored?.availability).toEqual({ status: 'limited', quantity: 4, policy: 'deny' });
  });

  it.each([
    ['a malformed line', '{"id": "x",', /^line 3: invalid JSON/],
    ['a product missing its title', JSON.stringify({ id: 'x', price: 1, currency: 'USD', availability: { status: 'in_stock', quantity: 1, policy: 'deny' } }), /^line 3: title is required/],
    ['a negative price', JSON.stringify(product({ id: 'x', price: -1 })), /^line 3: price must be >= 0/],
    ["a price past the contract's bound", JSON.stringify(product({ id: 'x', price: 1e21 })), /^line 3: price must be at most 100000000000 \(10\^11\), got 1e\+21$/],
    ["a variant price past the contract's bound", '{"id":"x","title":"X","price":1,"currency":"USD","availability":{"status":"in_stock","quantity":1,"policy":"deny"},"variants":[{"sku":"x-1","title":"X","price":1e400,"inventory":{"status":"in_stock","quantity":1,"policy":"deny"}}]}', /^line 3: variants\[0\]\.price must be at most 100000000000 \(10\^11\), got Infinity$/],
    ['a bad currency', JSON.stringify(product({ id: 'x', currency: 'usd' })), /^line 3: currency must match/],
    ['a duplicate id', JSON.stringify(product({ id: 'good-1' })), /^line 3: product id "good-1" already appears on line 1/],
  ])('rejects %s with its line number and leaves the catalog as it was', async (_name, badLine, message) => {
    await importCatalog(db, 'm4', catalogFile([product({ id: 'orig', price: 7 })]));
    const before = await snapshot('m4');
    const file = catalogFile([product({ id: 'good-1' }), product({ id: 'orig', price: 99 }), badLine, product({ id: 'good-2' })]);
    const failure = await importCatalog(db, 'm4', file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ImportError);
    expect((failure as Error).message).toMatch(message);
    expect(await snapshot('m4')).toEqual(before);
  });

  it('rolls back everything written when a batch fails in the middle', async () => {
    await importCatalog(db, 'm5', catalogFile([product({ id: 'owner', variants: [{ ...product({ id: 'owner' }).variants[0]!, sku: 'TAKEN' }] })]));
    const before = await snapshot('m5');
    const products = Array.from({ length: 30 }, (_, i) => product({ id: `n${i}` }));
    products[25] = product({ id: 'thief', variants: [{ ...product({ id: 'thief' }).variants[0]!, sku: 'TAKEN' }] });
    const failure = await importCatalog(db, 'm5', catalogFile(products), { batchSize: 10 }).catch((e: unknown) => e);
    expect((failure as Error).message).toBe('line 26: variant sku "TAKEN" already belongs to product "owner"');
    expect(await snapshot('m5')).toEqual(before);
  });

  it('imports the demo catalog', async () => {
    const { DEMO_CATALOG } = await import('../src/demo-seed.js');
    const { imported } = await importCatalog(db, 'demo', DEMO_CATALOG);
    expect(imported).toBe(2962);
    expect(await store.count('demo')).toBe(2962);
  });
});
