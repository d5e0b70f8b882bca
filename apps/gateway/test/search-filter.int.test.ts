/**
 * What a catalog filter means (src/search/filter.ts), as one table run through every reader of
 * the catalog: the database's SQL (CatalogStore.filter, on the test database), the read model's
 * snapshot (MerchantCatalog), the embedded search index (a blank text lists what the filters
 * allow, in title order) and the Meilisearch filter builder (its expression evaluated over the
 * documents the adapter writes, by the few operators it uses).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogStore } from '../src/catalog/catalog-store.js';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { MerchantCatalog } from '../src/catalog/read-model/merchant-catalog.js';
import type { Product } from '../src/contract/types.js';
import { EmbeddedSearchEngine } from '../src/search/embedded/embedded-engine.js';
import type { ProductFilter } from '../src/search/filter.js';
import { filterExpression, toMeiliProduct, type MeiliProduct } from '../src/search/meilisearch/meilisearch-documents.js';
import { toSearchDocument } from '../src/search/product-text.js';
import { catalogFile, product } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const MERCHANT = 'filters';

const products: Product[] = [
  product({ id: 'b', title: 'Oak chair', category: 'Furniture > Chairs', price: 120, tags: ['Wood'] }),
  product({ id: 'a', title: 'Oak chair', category: 'Furniture > Chairs', price: 80 }),
  product({ id: 'c', title: 'Ärmchair', category: 'Furniture > Armchairs', price: 300 }),
  product({ id: 'd', title: 'Mug', category: 'Kitchen', price: 9.5, tags: ['coffee', 'Wood'] }),
  product({ id: 'e', title: '😀 lamp', category: 'Lighting', price: 20, tags: ['wooden'] }),
  product({ id: 'f', title: 'Sale sign', category: '100% off_season \\ Deals', price: 0, tags: ['50%'] }),
  product({ id: 'g', title: 'oak chair', category: 'FURNITURE', price: 120.5, tags: ['WOOD', 'wood'] }),
];

/** The filter, and the products it allows in title-then-id order (code points, like COLLATE "C"). */
const table: [ProductFilter, string[]][] = [
  [{}, ['d', 'a', 'b', 'f', 'g', 'c', 'e']],
  [{ category: 'CHAIRS' }, ['a', 'b', 'c']],
  [{ category: 'furniture > chairs' }, ['a', 'b']],
  [{ category: 'furniture' }, ['a', 'b', 'g', 'c']],
  [{ category: 'ture > ch' }, ['a', 'b']],
  [{ category: '100%' }, ['f']],
  [{ category: '%' }, ['f']],
  [{ category: '_' }, ['f']],
  [{ category: '\\' }, ['f']],
  [{ category: 'o_f' }, []], // `_` is no wildcard (`off` would match it)
  [{ category: 'e%l' }, []], // nor is `%`
  [{ category: 'garden' }, []],
  [{ tag: 'wood' }, ['d', 'b', 'g']],
  [{ tag: 'WOOD' }, ['d', 'b', 'g']],
  [{ tag: 'woo' }, []],
  [{ tag: '50%' }, ['f']],
  [{ tag: '5%' }, []],
  [{ minPrice: 20, maxPrice: 120 }, ['a', 'b', 'e']],
  [{ minPrice: 120 }, ['b', 'g', 'c']],
  [{ maxPrice: 0 }, ['f']],
  [{ minPrice: 120.5, maxPrice: 120.5 }, ['g']],
  [{ category: 'chairs', maxPrice: 100 }, ['a']],
  [{ category: 'furniture', tag: 'wood', minPrice: 100 }, ['b', 'g']],
];

let db: TestDatabase;
let store: CatalogStore;
const engine = new EmbeddedSearchEngine({ dimensions: 100 });
const snapshot = new MerchantCatalog(products);
const meiliDocuments = products.map((p) => toMeiliProduct({ ...toSearchDocument(MERCHANT, p), merchantId: MERCHANT }, false));

beforeAll(async () => {
  db = await createTestDatabase();
  await importCatalog(db, MERCHANT, catalogFile(products));
  store = new CatalogStore(db);
  await engine.replaceMerchant(MERCHANT, products.map((p) => toSearchDocument(MERCHANT, p)));
});
afterAll(() => db?.close());

const page = { offset: 0, limit: 100 };

describe.each(table)('the filter %j', (filter, expected) => {
  it('is what the SQL selects, in order', async () => {
    const { ids, total } = await store.filter(MERCHANT, filter, page);
    expect({ ids, total }).toEqual({ ids: expected, total: expected.length });
  });

  it('is what the read model snapshot lists, in order', () => {
    const { items, total } = snapshot.filter(filter, page);
    expect({ ids: items.map((p) => p.id), total }).toEqual({ ids: expected, total: expected.length });
  });

  it('is what the embedded index allows, in order', async () => {
    const { hits, total } = await engine.search({ merchantId: MERCHANT, text: '', filters: filter, ...page });
    expect({ ids: hits.map((h) => h.id), total }).toEqual({ ids: expected, total: expected.length });
  });

  it('is what the Meilisearch filter allows', () => {
    const allowed = meiliDocuments.filter((doc) => meiliFilterAllows(filterExpression(MERCHANT, filter), doc)).map((doc) => doc.product_id);
    expect(allowed.sort()).toEqual([...expected].sort());
  });
});

/**
 * Evaluates the filter expressions filterExpression writes: clauses joined by AND, each
 * `field = "text"` (on a list: any element), `field CONTAINS "text"`, `field >= n` or `field <= n`.
 */
function meiliFilterAllows(expression: string, doc: MeiliProduct): boolean {
  const clause = /\s*(\w+) (=|CONTAINS|>=|<=) ("(?:[^"\\]|\\.)*"|-?[\d.e+-]+)\s*(?:AND|$)/gy;
  let matched = 0;
  let allows = true;
  for (const [whole, field, op, literal] of expression.matchAll(clause)) {
    matched += whole.length;
    const value = literal!.startsWith('"') ? literal!.slice(1, -1).replace(/\\(.)/g, '$1') : Number(literal);
    const actual = (doc as unknown as Record<string, unknown>)[field!];
    const values = Array.isArray(actual) ? actual : [actual];
    const holds = (a: unknown) =>
      op === '=' ? a === value : op === 'CONTAINS' ? String(a).includes(String(value)) : op === '>=' ? (a as number) >= (value as number) : (a as number) <= (value as number);
    if (!values.some(holds)) allows = false;
  }
  expect(matched, `every clause of ${expression} is understood`).toBe(expression.length);
  return allows;
}
