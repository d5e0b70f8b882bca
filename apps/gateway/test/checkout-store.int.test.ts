/**
 * The checkout store's reads on the driver (db/sql.ts), where the read model cannot answer (not live
 * yet, or its listener down): a cart's products and the shortages of an open cart, from the database,
 * inside a transaction and outside one, on PostgreSQL when TEST_DATABASE_URL is set, else on PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { CheckoutStore } from '../src/checkout/checkout-store.js';
import { bare, stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let store: CheckoutStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new CheckoutStore(db);
  await importCatalog(db, 'store-shop', catalogFile([
    stocked('chair', [{ price: 49.99, quantity: 3 }, { price: 59.5, quantity: 0, policy: 'continue' }]),
    bare('lamp', 25, 1),
  ]));
});
afterAll(() => db?.close());

describe('CheckoutStore on the driver', () => {
  it("reads a cart's products with their variants in catalog order, in a transaction and outside one", async () => {
    const expected = new Map([
      ['chair', { id: 'chair', title: 'Title of chair', category: 'Things', price: 49.99, currency: 'USD', variants: [
        { sku: 'chair-v0', price: 49.99, currency: 'USD', requiresShipping: null, taxable: null },
        { sku: 'chair-v1', price: 59.5, currency: 'USD', requiresShipping: null, taxable: null },
      ] }],
      ['lamp', { id: 'lamp', title: 'Title of lamp', category: 'Things', price: 25, currency: 'USD', variants: [] }],
    ]);
    expect(await store.catalogProducts('store-shop', ['chair', 'lamp', 'chair', 'nope'])).toEqual(expected);
    expect(await db.transaction((tx) => store.catalogProducts('store-shop', ['chair', 'lamp'], tx))).toEqual(expected);
    expect(await store.catalogProducts('another-shop', ['chair'])).toEqual(new Map());
  });

  it('reports the shortages of an open cart: short under deny, never under continue, gone when not in the catalog', async () => {
    const takes = [
      { productId: 'chair', sku: 'chair-v0', quantity: 5, lines: [0] },
      { productId: 'chair', sku: 'chair-v1', quantity: 9, lines: [1] },
      { productId: 'lamp', sku: 'lamp', quantity: 2, lines: [2] },
      { productId: 'chair', sku: 'chair-v9', quantity: 1, lines: [3] },
    ];
    const expected = [
      { lines: [0], sku: 'chair-v0', requested: 5, available: 3 },
      { lines: [2], sku: 'lamp', requested: 2, available: 1 },
      { lines: [3], sku: 'chair-v9', requested: 1, available: null },
    ];
    expect(await store.shortages(undefined, 'store-shop', takes)).toEqual(expected);
    expect(await db.transaction((tx) => store.shortages(tx, 'store-shop', takes))).toEqual(expected);
  });
});
