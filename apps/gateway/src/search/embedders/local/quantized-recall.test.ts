/**
 * Whether int8 rows find the products float32 rows find, on realistic vectors: the local embedder's
 * vectors of the demo catalog (2,962 products) and the relevance bench's queries. Ties count as
 * found: a product in the quantized top 10 is a hit when its exact cosine reaches the exact 10th
 * best (the catalog has products whose texts, and so vectors, are the same).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedLocalEmbedder } from './local-embedder.js';
import { embeddingText, type SearchedFields } from '../../product-text.js';
import { cosineMatrix, type CosineMatrix } from '../../embedded/cosine-matrix.js';

const TOP = 10;
const catalogPath = fileURLToPath(new URL('../../../../data/demo/products.ndjson', import.meta.url));
const queriesPath = fileURLToPath(new URL('../../../../../../bench/relevance/queries.json', import.meta.url));

function exactDot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** The indexes of the `k` largest values. */
function topK(values: ArrayLike<number>, k: number): number[] {
  return Array.from({ length: values.length }, (_, i) => i)
    .sort((a, b) => values[b]! - values[a]!)
    .slice(0, k);
}

describe('int8 rows against float32 rows, on the demo catalog', () => {
  const embedder = sharedLocalEmbedder();
  let vectors: Float32Array[];
  let queries: Float32Array[];
  let matrix: CosineMatrix;

  beforeAll(async () => {
    const products = readFileSync(catalogPath, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as SearchedFields);
    vectors = await embedder.embed(products.map(embeddingText));
    const spec = JSON.parse(readFileSync(queriesPath, 'utf8')) as { queries: { text: string }[] };
    queries = await Promise.all(spec.queries.map((q) => embedder.embedQuery(q.text)));
    matrix = cosineMatrix(vectors.length, embedder.dimensions);
    vectors.forEach((v, d) => matrix.setRow(d, v));
  });

  it('scans the demo catalog with the WebAssembly kernel', () => {
    expect(vectors.length).toBe(2962);
    expect(queries.length).toBeGreaterThanOrEqual(40);
    expect(matrix.kernel).toBe(true);
  });

  it(`keeps recall@${TOP} of the exact float32 scan at 0.98 or more`, () => {
    let found = 0;
    let worstQuery = 1;
    let worstError = 0;
    for (const query of queries) {
      const exact = Float64Array.from(vectors, (v) => exactDot(query, v));
      const tenth = exact[topK(exact, TOP)[TOP - 1]!]!;
      matrix.cosineAll(query);
      const hits = topK(matrix.cosines, TOP).filter((d) => exact[d]! >= tenth).length;
      found += hits;
      worstQuery = Math.min(worstQuery, hits / TOP);
      for (let d = 0; d < vectors.length; d++) worstError = Math.max(worstError, Math.abs(matrix.cosines[d]! - exact[d]!));
    }
    const recall = found / (queries.length * TOP);
    expect(recall).toBeGreaterThanOrEqual(0.98);
    expect(worstQuery).toBeGreaterThanOrEqual(0.8);
    expect(worstError).toBeLessThan(5e-3);
  });
});
