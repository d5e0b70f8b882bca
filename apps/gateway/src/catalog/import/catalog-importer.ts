/**
 * Imports a catalog file for a merchant, atomically: a first pass validates every
 * record against the contract (stopping at the first bad line, writing nothing);
 * a second pass embeds and writes all of them in one transaction, in batches, embedding
 * one batch while the database writes the one before (write-pipeline.ts). Memory stays
 * bounded by two batches plus the file's ids and SKUs (for the duplicate checks).
 * Once committed, the change is announced: in this process to the catalog read model and
 * search index of the same database (awaited, so a read right after an import sees it), and
 * to other processes with NOTIFY catalog_changed.
 */
import type { Database } from '../../db/database.js';
import type { Product } from '../../contract/types.js';
import type { Embedder } from '../../search/embedder.js';
import { lazyLocalEmbedder } from '../../search/embedders/local/local-embedder.js';
import { embeddingText } from '../../search/product-text.js';
import { catalogEvents } from '../catalog-events.js';
import { SkuConflictError, withCatalogWriter } from '../catalog-writer.js';
import { toProductInput } from './product-input.js';
import { readRecords } from '../../kernel/records/record-reader.js';
import { WritePipeline } from './write-pipeline.js';

export class ImportError extends Error {
  override name = 'ImportError';
  constructor(
    readonly line: number | undefined,
    reason: string,
  ) {
    super(line === undefined ? reason : `line ${line}: ${reason}`);
  }
}

export interface ImportProgress {
  phase: 'validating' | 'writing';
  done: number;
  total: number | undefined;
}

export interface ImportOptions {
  batchSize?: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Makes the products' search vectors; the local embedder by default. */
  embedder?: Embedder;
}

export interface ImportResult {
  imported: number;
  /** Products stored without a vector because the embedder failed (`catalog reindex` fills them in). */
  unembedded: number;
  embedderError?: string;
}

/** Above this many products the change is announced for the whole merchant rather than by id. */
const NAMED_CHANGE_LIMIT = 10_000;

async function* validRecords(file: string): AsyncGenerator<{ line: number; product: Product }> {
  for await (const record of readRecords(file)) {
    if (record.error !== undefined) throw new ImportError(record.line, record.error);
    const result = toProductInput(record.value);
    if (!result.ok) throw new ImportError(record.line, result.error);
    yield { line: record.line, product: result.product };
  }
}

/** Pass 1: everything valid, ids and SKUs unique within the file. Returns the product count. */
async function validate(file: string, onProgress: ImportOptions['onProgress']): Promise<number> {
  const ids = new Map<string, number>();
  const skus = new Map<string, number>();
  let count = 0;
  for await (const { line, product } of validRecords(file)) {
    const seen = ids.get(product.id);
    if (seen !== undefined) throw new ImportError(line, `product id ${JSON.stringify(product.id)} already appears on line ${seen}`);
    ids.set(product.id, line);
    for (const variant of product.variants) {
      const owner = skus.get(variant.sku);
      if (owner !== undefined) {
        throw new ImportError(line, `variant sku ${JSON.stringify(variant.sku)} already appears on line ${owner}`);
      }
      skus.set(variant.sku, line);
    }
    count++;
    if (count % 1000 === 0) onProgress?.({ phase: 'validating', done: count, total: undefined });
  }
  // The whole file is valid: from here on, only a conflict with another merchant's SKU (or the database) can stop it.
  if (count > 0) onProgress?.({ phase: 'validating', done: count, total: count });
  return count;
}

/** Vectors for a batch, or none when the embedder fails (the import goes on without them). */
async function embedBatch(embedder: Embedder, products: readonly Product[]): Promise<{ vectors: (Float32Array | undefined)[]; error?: string }> {
  try {
    const vectors = await embedder.embed(products.map(embeddingText));
    if (vectors.length !== products.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${products.length} texts`);
    return { vectors };
  } catch (error) {
    return { vectors: [], error: (error as Error).message };
  }
}

/** Statistics at 1,000, 2,000, 4,000, … products written (see CatalogWriter.analyze). */
function crossesAnalyzeMark(before: number, after: number): boolean {
  return after >= 1_000 && Math.floor(Math.log2(after / 1_000)) !== Math.floor(Math.log2(Math.max(1, before) / 1_000));
}

export async function importCatalog(db: Database, merchantId: string, file: string, options: ImportOptions = {}): Promise<ImportResult> {
  // 1,000 per batch: fewer statements, and the same heap as smaller ones (bench/search/import-heap.ts).
  const { batchSize = 1_000, onProgress } = options;
  const events = catalogEvents(db);
  const embedder = options.embedder ?? lazyLocalEmbedder();
  const total = await validate(file, onProgress);
  if (total === 0) throw new ImportError(undefined, 'the file holds no products');
  let written = 0;
  let unembedded = 0;
  let embedderError: string | undefined;
  const ids: string[] = [];
  await withCatalogWriter(db, merchantId, async (writer) => {
    // A merchant with no products yet (the usual first import): nothing to delete or to conflict with, since
    // pass 1 found the file's ids and SKUs unique; its writes plan the same at any size, so no statistics are needed on the way.
    const fresh = !(await writer.holdsProducts());
    const pipeline = new WritePipeline();
    const write = async (batch: { line: number; product: Product }[], vectors: (Float32Array | undefined)[]) => {
      const products = batch.map((entry) => entry.product);
      try {
        if (fresh) await writer.insert(products, vectors, embedder.id);
        else await writer.replace(products, vectors, embedder.id);
      } catch (error) {
        if (error instanceof SkuConflictError) {
          const entry = batch.find((e) => e.product.variants.some((v) => v.sku === error.sku));
          throw new ImportError(entry?.line, error.message);
        }
        throw error;
      }
      const before = written;
      written += batch.length;
      if (!fresh && crossesAnalyzeMark(before, written)) await writer.analyze();
      if (written <= NAMED_CHANGE_LIMIT) ids.push(...products.map((p) => p.id));
      onProgress?.({ phase: 'writing', done: written, total });
    };
    const prepare = async (batch: { line: number; product: Product }[]) => {
      const products = batch.map((entry) => entry.product);
      // After one failure the rest of the file is written without vectors rather than waiting on a broken embedder.
      const embedded = embedderError === undefined ? await embedBatch(embedder, products) : { vectors: [], error: embedderError };
      if (embedded.error !== undefined) {
        unembedded += products.length;
        embedderError ??= embedded.error;
      }
      await pipeline.submit(() => write(batch, embedded.vectors));
    };
    try {
      let batch: { line: number; product: Product }[] = [];
      for await (const entry of validRecords(file)) {
        batch.push(entry);
        if (batch.length >= batchSize) {
          await prepare(batch);
          batch = [];
        }
      }
      if (batch.length) await prepare(batch);
      await pipeline.drain();
    } catch (error) {
      await pipeline.settle();
      throw error;
    }
    // Statistics for the reads that follow the import (the old schedule's last ANALYZE, for a fresh merchant).
    if (fresh && written >= 1_000) await writer.analyze();
    await writer.announce(events.notice({ merchantId, ids: written <= NAMED_CHANGE_LIMIT ? ids : undefined }));
  });
  await events.changed({ merchantId, ids: written <= NAMED_CHANGE_LIMIT ? ids : undefined });
  return { imported: written, unembedded, ...(embedderError === undefined ? {} : { embedderError }) };
}
