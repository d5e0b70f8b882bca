/**
 * The faster import keeps the old promises: one transaction whatever the batch that fails
 * (the write of one batch overlaps the embedding of the next), products stored without
 * vectors when the embedder fails, the embedder's vectors stored bit for bit, and every
 * field round-tripping through the column arrays (column-arrays.ts), on a merchant's first
 * import (insert only) and on a re-import (replace).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { CatalogStore } from '../src/catalog/catalog-store.js';
import type { Product } from '../src/contract/types.js';
import type { Embedder } from '../src/search/embedder.js';
import { sharedLocalEmbedder } from '../src/search/embedders/local/local-embedder.js';
import { embeddingText } from '../src/search/product-text.js';
import { catalogFile, product } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let store: CatalogStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = new CatalogStore(db);
});
afterAll(() => db?.close());

const many = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => product({ id: `${prefix}${i}` }));

/** Valid for the contract (no maximum on a quantity), refused by the database (an int column): fails only when written. */
const unwritable = (id: string): Product => ({ ...product({ id }), variants: [], availability: { status: 'in_stock', quantity: 3_000_000_000, policy: 'deny' } });

/** The local embedder, failing from its `failFrom`-th call on. */
function failingEmbedder(failFrom: number): Embedder & { calls: number } {
  const local = sharedLocalEmbedder();
  const embedder = {
    id: local.id,
    dimensions: local.dimensions,
    calls: 0,
    async embed(texts: readonly string[]) {
      if (++embedder.calls >= failFrom) throw new Error('embedder down');
      return local.embed(texts);
    },
    embedQuery: (text: string) => local.embedQuery(text),
  };
  return embedder;
}

async function storedVectors(merchantId: string) {
  const rows = await db.prisma.product.findMany({ where: { merchantId }, select: { id: true, embedding: true, embeddingModel: true } });
  return new Map(rows.map((row) => [row.id, row]));
}

describe('catalog import, batches written while the next is embedded', () => {
  it("rolls a merchant's first import back whole when a late batch fails in the database", async () => {
    const products: (Product | string)[] = many('f', 40);
    products[35] = unwritable('too-many');
    const failure = await importCatalog(db, 'fresh-fail', catalogFile(products), { batchSize: 10 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(await store.count('fresh-fail')).toBe(0);
    expect(await db.prisma.merchant.count({ where: { id: 'fresh-fail' } })).toBe(0);
  });

  it('rolls a re-import back whole when a late batch fails in the database', async () => {
    await importCatalog(db, 'again-fail', catalogFile(many('a', 5)));
    const before = await store.getMany('again-fail', ['a0', 'a1', 'a2', 'a3', 'a4']);
    const products = many('a', 40).map((p) => ({ ...p, price: 99 }));
    products[38] = unwritable('too-many');
    await expect(importCatalog(db, 'again-fail', catalogFile(products), { batchSize: 10 })).rejects.toThrow();
    expect(await store.count('again-fail')).toBe(5);
    expect(await store.getMany('again-fail', ['a0', 'a1', 'a2', 'a3', 'a4'])).toEqual(before);
  });

  it.each([
    ['a first import', false],
    ['a re-import', true],
  ])('stores products without vectors once the embedder fails (%s)', async (_name, again) => {
    const merchantId = again ? 'embed-fail-again' : 'embed-fail';
    if (again) await importCatalog(db, merchantId, catalogFile(many('e', 3)));
    const embedder = failingEmbedder(3);
    const result = await importCatalog(db, merchantId, catalogFile(many('e', 50)), { batchSize: 10, embedder });
    expect(result).toEqual({ imported: 50, unembedded: 30, embedderError: 'embedder down' });
    expect(embedder.calls).toBe(3); // not called again after it failed
    const vectors = await storedVectors(merchantId);
    expect(vectors.size).toBe(50);
    const embedded = [...vectors.values()].filter((row) => row.embedding !== null);
    expect(embedded.map((row) => row.id).sort()).toEqual(many('e', 20).map((p) => p.id).sort());
    expect([...vectors.values()].filter((row) => row.embedding === null).every((row) => row.embeddingModel === null)).toBe(true);
  });

  it("stores the embedder's vectors bit for bit, with its id", async () => {
    const products = many('v', 25);
    await importCatalog(db, 'vectors', catalogFile(products), { batchSize: 10 });
    const local = sharedLocalEmbedder();
    const vectors = await storedVectors('vectors');
    for (const p of products) {
      const expected = local.embedOne(embeddingText(p));
      const stored = vectors.get(p.id)!;
      expect(stored.embeddingModel).toBe(local.id);
      expect(Buffer.from(stored.embedding!)).toEqual(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength));
    }
  });

  it.each([
    ['a first import', false],
    ['a re-import', true],
  ])('round-trips every field, awkward text included (%s)', async (_name, again) => {
    const merchantId = again ? 'fields-again' : 'fields';
    const awkward = ['say "hi"', 'back\\slash', 'a,b', '{braces}', 'NULL', '', ' padded ', 'ünïcødé ✓', "it's", 'line\nbreak'];
    const base = product({ id: 'odd' });
    const odd: Product = {
      ...base,
      title: 'Quote " and \\ backslash',
      description: '',
      tags: awkward,
      attributes: { colour: ['red', 'NULL', '"quoted"'], 'odd key "x"': ['{1,2}'] },
      images: [
        { url: 'https://example.com/a.jpg', alt_text: 'A "picture"', position: 0 },
        { url: 'https://example.com/b.jpg', position: 7 },
      ],
      variants: [
        { ...base.variants[0]!, sku: 'odd-1', title: 'One, "first"', attributes: { size: 'M "medium"' }, weight_grams: 12.5, weight_unit: 'g', requires_shipping: false, taxable: true },
        { ...base.variants[0]!, sku: 'odd-2', title: 'Two', price: 0.1 + 0.2, inventory: { status: 'in_stock', quantity: 0, policy: 'continue' } },
      ],
    };
    const plain = product({ id: 'plain' });
    if (again) await importCatalog(db, merchantId, catalogFile([product({ id: 'odd', title: 'Old' }), plain]));
    await importCatalog(db, merchantId, catalogFile([odd, plain]));
    const [stored] = await store.getMany(merchantId, ['odd']);
    // What the import itself makes of the record (defaults, derived stock), compared field by field.
    const { toProductInput } = await import('../src/catalog/import/product-input.js');
    const expected = toProductInput(JSON.parse(JSON.stringify(odd)));
    expect(expected.ok).toBe(true);
    expect(stored).toEqual((expected as { product: Product }).product);
  });
});
