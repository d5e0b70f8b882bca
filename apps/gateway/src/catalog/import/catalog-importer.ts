/**
 * Imports a catalog file for a merchant, atomically: a first pass validates every
 * record against the contract (stopping at the first bad line, writing nothing);
 * a second pass writes all of them in one transaction, in batches.
 */
import type { Prisma } from '../../db/database.js';
import type { Product } from '../../contract-types.js';
import { SkuConflictError, withCatalogWriter } from '../catalog-writer.js';
import { toProductInput } from './product-input.js';
import { readRecords } from './record-reader.js';

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
}

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
  return count;
}

export async function importCatalog(prisma: Prisma, merchantId: string, file: string, options: ImportOptions = {}): Promise<{ imported: number }> {
  const { batchSize = 500, onProgress } = options;
  const total = await validate(file, onProgress);
  if (total === 0) throw new ImportError(undefined, 'the file holds no products');
  let written = 0;
  await withCatalogWriter(prisma, merchantId, async (writer) => {
    let batch: { line: number; product: Product }[] = [];
    const flush = async () => {
      try {
        await writer.replace(batch.map((entry) => entry.product));
      } catch (error) {
        if (error instanceof SkuConflictError) {
          const entry = batch.find((e) => e.product.variants.some((v) => v.sku === error.sku));
          throw new ImportError(entry?.line, error.message);
        }
        throw error;
      }
      written += batch.length;
      batch = [];
      onProgress?.({ phase: 'writing', done: written, total });
    };
    for await (const entry of validRecords(file)) {
      batch.push(entry);
      if (batch.length >= batchSize) await flush();
    }
    if (batch.length) await flush();
  });
  return { imported: written };
}
