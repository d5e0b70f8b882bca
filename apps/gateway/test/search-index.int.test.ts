/**
 * The search index against a real database: rebuilt from persisted vectors without
 * re-embedding, graceful when the embedder fails, and (on PostgreSQL) following imports made
 * by another process through LISTEN/NOTIFY.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogService } from '../src/catalog/build-catalog-search.js';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { openDatabase } from '../src/db/database.js';
import { EmbeddedSearchEngine } from '../src/search/embedded/embedded-engine.js';
import type { Embedder } from '../src/search/embedder.js';
import { sharedLocalEmbedder } from '../src/search/embedders/local/local-embedder.js';
import { catalogFile, product } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.close());

const products = [
  product({ id: 'mug', title: 'Insulated travel mug', category: 'Kitchen', tags: ['coffee'] }),
  product({ id: 'sofa', title: 'Three-seat sofa', category: 'Furniture' }),
  product({ id: 'lamp', title: 'Desk lamp', category: 'Lighting' }),
];

/** The local embedder, counting the texts it embeds (same id, so stored vectors count as current). */
function counting(): Embedder & { texts: number } {
  const local = sharedLocalEmbedder();
  const wrapper = {
    id: local.id,
    dimensions: local.dimensions,
    texts: 0,
    async embed(texts: readonly string[]) {
      wrapper.texts += texts.length;
      return local.embed(texts);
    },
  };
  return wrapper;
}

const failing: Embedder = { id: 'broken', dimensions: 100, embed: () => Promise.reject(new Error('endpoint down')) };

function memoryLogger() {
  const lines: { msg: string; level: number }[] = [];
  return { logger: pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) }), lines };
}

const page = { page: 1, pageSize: 10 };

/** A LISTEN that never hears another process (there is none here): enough for the read model to serve from memory. */
const inProcessListen = async () => ({ close: async () => {} });

describe('search index over the database', () => {
  beforeAll(async () => {
    await importCatalog(db, 'idx', catalogFile(products));
  });

  it('is rebuilt at start-up from the stored vectors, embedding nothing', async () => {
    const embedder = counting();
    const catalog = buildCatalogService(db, { parts: { embedder } });
    const stats = await catalog.warmUp();
    expect(stats).toMatchObject({ products: expect.any(Number), embedded: 0 });
    expect(embedder.texts).toBe(0);
    const result = await catalog.search('idx', { q: 'couch', ...page }, 'v');
    expect(result.items[0]?.id).toBe('sofa');
    await catalog.close();
  });

  it('is built on the read model\'s own columns of the products (one set of filter and facet columns and title order), also after a change', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: sharedLocalEmbedder().dimensions });
    const catalog = buildCatalogService(db, { parts: { engine }, listen: inProcessListen });
    await catalog.warmUp();
    expect(engine.snapshot('idx')?.columns).toBe(catalog.readModel.columnsOf('idx'));
    await importCatalog(db, 'idx', catalogFile([product({ id: 'stool', title: 'Bar stool', category: 'Furniture' })]));
    expect(engine.snapshot('idx')?.columns).toBe(catalog.readModel.columnsOf('idx'));
    expect(engine.snapshot('idx')?.columns.ids).toContain('stool');
    expect((await catalog.search('idx', { category: 'furniture', ...page }, 'v')).items.map((p) => p.id)).toEqual(['stool', 'sofa']);
    await catalog.close();
  });

  it('embeds (and stores) only the vectors that are missing or from another model', async () => {
    await db.prisma.product.updateMany({ where: { merchantId: 'idx', id: 'lamp' }, data: { embeddingModel: 'some-older-model' } });
    const embedder = counting();
    const catalog = buildCatalogService(db, { parts: { embedder } });
    await catalog.warmUp();
    expect(embedder.texts).toBe(1);
    const row = await db.prisma.product.findUnique({ where: { merchantId_id: { merchantId: 'idx', id: 'lamp' } } });
    expect(row?.embeddingModel).toBe(embedder.id);
    await catalog.close();
  });

  it('answers with keyword ranking and logs it when the query embedder fails', async () => {
    const { logger, lines } = memoryLogger();
    const catalog = buildCatalogService(db, { logger, parts: { embedder: failing } });
    const result = await catalog.search('idx', { q: 'travel mug', ...page }, 'v');
    expect(result.items.map((p) => p.id)).toEqual(['mug']);
    expect(result.items[0]!.similarity_score).toBeGreaterThan(0);
    expect(lines.some((l) => l.msg === 'query embedding failed; searching by keywords only')).toBe(true);
    await catalog.close();
  });

  it('imports without vectors when the embedder fails, and reindex fills them in', async () => {
    const result = await importCatalog(db, 'noembed', catalogFile(products), { embedder: failing, batchSize: 1 });
    expect(result).toMatchObject({ imported: 3, unembedded: 3, embedderError: 'endpoint down' });
    const rows = await db.prisma.product.findMany({ where: { merchantId: 'noembed' }, select: { embedding: true } });
    expect(rows.every((r) => r.embedding === null)).toBe(true);
    const stillBroken = buildCatalogService(db, { parts: { embedder: failing } });
    const keywordOnly = await stillBroken.search('noembed', { q: 'mug', ...page }, 'v');
    expect(keywordOnly.items.map((p) => p.id)).toEqual(['mug']);
    await stillBroken.close();
    const catalog = buildCatalogService(db);
    const stats = await catalog.searchIndex.reindex(['noembed']);
    expect(stats).toMatchObject({ merchants: 1, products: 3, embedded: 3 });
    expect((await catalog.search('noembed', { q: 'couch', ...page }, 'v')).items[0]?.id).toBe('sofa');
    await catalog.close();
  });
  it('remembers a whole answer for the snapshot it came from, in one place: the same object until an import replaces the snapshot', async () => {
    const catalog = buildCatalogService(db);
    await importCatalog(db, 'memo', catalogFile([product({ id: 'oak', title: 'Oak chair' }), product({ id: 'pine', title: 'Pine chair' })]));
    const ask = () => catalog.searchIndex.search('memo', 'chair', {}, { offset: 0, limit: 10 });
    const once = await ask(); // a question asked once is not kept (catalog/doorkeeper.ts): the second answer is
    const first = await ask();
    expect(first).not.toBe(once);
    expect(first).toEqual(once);
    expect(await ask()).toBe(first);
    expect(await catalog.searchIndex.search('memo', 'chair', {}, { offset: 0, limit: 1 })).not.toBe(first);
    await importCatalog(db, 'memo', catalogFile([product({ id: 'birch', title: 'Birch chair' })]));
    const after = await ask();
    expect(after).not.toBe(first);
    expect(after.total).toBe(3);
    await catalog.close();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL, another process\'s import', () => {
  it('reaches a running gateway\'s index through LISTEN/NOTIFY', async () => {
    const catalog = buildCatalogService(db, { config: { databaseUrl: db.url } });
    await importCatalog(db, 'notify', catalogFile([product({ id: 'a', title: 'Oak chair' })]));
    await catalog.warmUp();
    // "Another process": a second client of the same database, whose in-process news this catalog never hears.
    const other = await openDatabase({ url: db.url!, poolSize: 2 });
    try {
      await importCatalog(other, 'notify', catalogFile([product({ id: 'b', title: 'Walnut bookcase' })]));
      // Heard through NOTIFY alone: polled until it shows (the configured limit is for a busy machine).
      await expect.poll(async () => (await catalog.search('notify', { q: 'bookcase', ...page }, 'v')).items.map((p) => p.id)).toEqual(['b']);
    } finally {
      await other.close();
      await catalog.close();
    }
  });
});
