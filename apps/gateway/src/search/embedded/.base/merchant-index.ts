/**
 * One merchant's immutable search snapshot: BM25F postings (term → documents with their
 * saturated, field-weighted term frequency), an idf per term, a dense vector matrix,
 * filter columns (price, category, tags) and each document's place in title-then-id order
 * (the tie-break). Searching is synchronous and allocation-light; a change builds a new
 * snapshot (see embedded-engine.ts).
 */
import { terms as analyze } from '../../text/analyzer.js';
import type { SearchDocument, SearchFilters, SearchHit, SearchResult } from '../../search-engine.js';
import { compareCodePoints } from '../code-point-order.js';
import { FIELDS, K1 } from '../fields.js';
import type { TermDictionary } from './term-dictionary.js';
import { topK } from '../top-k.js';

/**
 * A document with its analysed fields (kept so that snapshots can be rebuilt without
 * re-analysis): the term ids of every field in one array, field f in [offsets[f], offsets[f+1]).
 */
export interface AnalyzedDocument {
  doc: SearchDocument;
  terms: Int32Array;
  offsets: Uint16Array | Uint32Array;
  /** The title holds a character at or above U+D800 (then code-point order needs the slow compare). */
  wideTitle: boolean;
}

export function analyzeDocument(doc: SearchDocument, dictionary: TermDictionary): AnalyzedDocument {
  const ids: number[] = [];
  const offsets: number[] = [0];
  for (const field of FIELDS) {
    const text = field.text(doc);
    if (field.repeated && text.length < 200) ids.push(...dictionary.cached(text, analyze));
    else for (const term of analyze(text)) ids.push(dictionary.id(term));
    offsets.push(ids.length);
  }
  return {
    doc,
    terms: Int32Array.from(ids),
    offsets: ids.length < 65_536 ? Uint16Array.from(offsets) : Uint32Array.from(offsets),
    wideTitle: /[\uD800-\uFFFF]/.test(doc.title) || /[\uD800-\uFFFF]/.test(doc.id),
  };
}

export interface RankingOptions {
  /** Weight of keyword relevance in the fused score; the vector's weight is 1 − this. */
  keywordWeight: number;
  /** A product without a keyword hit matches only when its cosine to the query reaches this… */
  vectorFloor: number;
  /** …and lies within this distance of the best cosine among the products searched (its close neighbours). */
  vectorBand: number;
}

interface Posting {
  docs: Int32Array;
  weights: Float32Array;
  idf: number;
}

export class MerchantIndex {
  readonly size: number;
  readonly dims: number;
  private readonly ids: string[];
  private readonly postings = new Map<number, Posting>();
  private readonly vectors: Float32Array;
  private readonly hasVector: Uint8Array;
  private readonly prices: Float64Array;
  private readonly categories: string[];
  private readonly categoryOf: Int32Array;
  private readonly tags = new Map<string, Int32Array>();
  private readonly order: Int32Array;
  private readonly scores: Float32Array;
  private readonly candidates: Int32Array;
  private readonly fused: Float32Array;
  private readonly cosines: Float32Array;

  constructor(
    documents: readonly AnalyzedDocument[],
    dims: number,
    private readonly dictionary: TermDictionary,
  ) {
    const n = documents.length;
    this.size = n;
    this.dims = dims;
    this.ids = documents.map((d) => d.doc.id);
    this.prices = Float64Array.from(documents, (d) => d.doc.price);
    this.vectors = new Float32Array(n * dims);
    this.hasVector = new Uint8Array(n);
    const categoryIds = new Map<string, number>();
    this.categoryOf = new Int32Array(n);
    const tagLists = new Map<string, number[]>();
    documents.forEach(({ doc }, i) => {
      if (doc.vector && doc.vector.length === dims) {
        this.vectors.set(doc.vector, i * dims);
        this.hasVector[i] = 1;
      }
      const category = doc.category.toLowerCase();
      let c = categoryIds.get(category);
      if (c === undefined) categoryIds.set(category, (c = categoryIds.size));
      this.categoryOf[i] = c;
      for (const tag of new Set(doc.tags.map((t) => t.toLowerCase()))) {
        const list = tagLists.get(tag);
        if (list) list.push(i);
        else tagLists.set(tag, [i]);
      }
    });
    this.categories = [...categoryIds.keys()];
    for (const [tag, list] of tagLists) this.tags.set(tag, Int32Array.from(list));
    this.buildPostings(documents);
    const byTitle = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
      const x = documents[a]!;
      const y = documents[b]!;
      if (x.wideTitle || y.wideTitle) return compareCodePoints(x.doc.title, y.doc.title) || compareCodePoints(x.doc.id, y.doc.id);
      // Below U+D800, UTF-16 order is code-point order.
      const tx = x.doc.title;
      const ty = y.doc.title;
      if (tx !== ty) return tx < ty ? -1 : 1;
      return x.doc.id < y.doc.id ? -1 : x.doc.id > y.doc.id ? 1 : 0;
    });
    this.order = new Int32Array(n);
    byTitle.forEach((doc, rank) => (this.order[doc] = rank));
    this.scores = new Float32Array(n);
    this.candidates = new Int32Array(n);
    this.fused = new Float32Array(n);
    this.cosines = new Float32Array(n);
  }

  /** Two passes over the documents: document frequencies, then postings filled in place. */
  private buildPostings(documents: readonly AnalyzedDocument[]): void {
    const n = documents.length;
    const fieldCount = FIELDS.length;
    const averages = new Float64Array(fieldCount);
    for (const d of documents) for (let f = 0; f < fieldCount; f++) averages[f]! += d.offsets[f + 1]! - d.offsets[f]!;
    for (let f = 0; f < fieldCount; f++) averages[f] = averages[f]! / Math.max(1, n) || 1;
    const size = this.dictionary.size;
    const tf = new Float64Array(size);
    const df = new Int32Array(size);
    const seen: number[] = [];
    const each = (d: AnalyzedDocument, visit: (term: number, value: number) => void) => {
      seen.length = 0;
      for (let f = 0; f < fieldCount; f++) {
        const start = d.offsets[f]!;
        const end = d.offsets[f + 1]!;
        if (end === start) continue;
        const field = FIELDS[f]!;
        const norm = field.weight / (1 - field.b + (field.b * (end - start)) / averages[f]!);
        for (let k = start; k < end; k++) {
          const term = d.terms[k]!;
          if (tf[term] === 0) seen.push(term);
          tf[term]! += norm;
        }
      }
      for (const term of seen) {
        visit(term, tf[term]!);
        tf[term] = 0;
      }
    };
    for (const d of documents) each(d, (term) => df[term]!++);
    const docsOf = new Map<number, { docs: Int32Array; weights: Float32Array; fill: number }>();
    for (let term = 0; term < size; term++) {
      const count = df[term]!;
      if (count > 0) docsOf.set(term, { docs: new Int32Array(count), weights: new Float32Array(count), fill: 0 });
    }
    documents.forEach((d, i) =>
      each(d, (term, value) => {
        const list = docsOf.get(term)!;
        list.docs[list.fill] = i;
        list.weights[list.fill++] = value / (K1 + value);
      }),
    );
    for (const [term, list] of docsOf) {
      const count = list.docs.length;
      this.postings.set(term, { docs: list.docs, weights: list.weights, idf: Math.log(1 + (n - count + 0.5) / (count + 0.5)) });
    }
  }

  /** Documents allowed by the filters, or undefined when there are no filters. */
  private allowed(filters: SearchFilters): Uint8Array | undefined {
    const { category, tag, minPrice, maxPrice } = filters;
    if (!category && !tag && minPrice === undefined && maxPrice === undefined) return undefined;
    const n = this.size;
    const mask = new Uint8Array(n);
    if (tag) {
      for (const i of this.tags.get(tag.toLowerCase()) ?? []) mask[i] = 1;
    } else mask.fill(1);
    if (category) {
      const needle = category.toLowerCase();
      const ok = Uint8Array.from(this.categories, (c) => (c.includes(needle) ? 1 : 0));
      for (let i = 0; i < n; i++) if (mask[i] && !ok[this.categoryOf[i]!]) mask[i] = 0;
    }
    if (minPrice !== undefined || maxPrice !== undefined) {
      const lo = minPrice ?? -Infinity;
      const hi = maxPrice ?? Infinity;
      for (let i = 0; i < n; i++) if (mask[i] && !(this.prices[i]! >= lo && this.prices[i]! <= hi)) mask[i] = 0;
    }
    return mask;
  }

  search(text: string, vector: Float32Array | undefined, filters: SearchFilters, offset: number, limit: number, options: RankingOptions): SearchResult {
    const n = this.size;
    const scores = this.scores;
    const touched: number[] = [];
    let idfSum = 0;
    for (const term of new Set(analyze(text))) {
      const id = this.dictionary.find(term);
      const posting = id === undefined ? undefined : this.postings.get(id);
      if (!posting) {
        idfSum += Math.log(1 + (n + 0.5) / 0.5);
        continue;
      }
      idfSum += posting.idf;
      const { docs, weights, idf } = posting;
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        if (scores[d] === 0) touched.push(d);
        scores[d]! += idf * weights[j]!;
      }
    }
    const mask = this.allowed(filters);
    const candidates = this.candidates;
    const fused = this.fused;
    let count = 0;
    const useVector = vector !== undefined && vector.length === this.dims && vector.some((x) => x !== 0);
    const kwNorm = idfSum > 0 ? 1 / idfSum : 0;
    if (useVector) {
      const alpha = options.keywordWeight;
      const dims = this.dims;
      const m = this.vectors;
      const cosines = this.cosines;
      let best = -1;
      // Every product's cosine (the best one, over the whole catalog, sets the neighbour band: whether a
      // product matches q does not depend on the filters); then the filters pick the candidates.
      for (let d = 0; d < n; d++) {
        let cos = 0;
        if (this.hasVector[d] === 1) {
          const base = d * dims;
          let s0 = 0;
          let s1 = 0;
          let s2 = 0;
          let s3 = 0;
          let i = 0;
          for (; i + 3 < dims; i += 4) {
            s0 += vector[i]! * m[base + i]!;
            s1 += vector[i + 1]! * m[base + i + 1]!;
            s2 += vector[i + 2]! * m[base + i + 2]!;
            s3 += vector[i + 3]! * m[base + i + 3]!;
          }
          for (; i < dims; i++) s0 += vector[i]! * m[base + i]!;
          cos = s0 + s1 + s2 + s3;
        }
        cosines[d] = cos;
        if (cos > best) best = cos;
      }
      const floor = Math.max(options.vectorFloor, best - options.vectorBand);
      for (let d = 0; d < n; d++) {
        if (mask && mask[d] === 0) continue;
        const keyword = scores[d]!;
        const cos = cosines[d]!;
        if (keyword > 0 || cos >= floor) {
          candidates[count++] = d;
          fused[d] = alpha * keyword * kwNorm + (1 - alpha) * Math.max(0, Math.min(1, cos));
        }
      }
    } else {
      for (const d of touched) {
        if (mask && mask[d] === 0) continue;
        candidates[count++] = d;
        fused[d] = scores[d]! * kwNorm;
      }
    }
    for (const d of touched) scores[d] = 0;
    const order = this.order;
    const better = (a: number, b: number) => fused[a]! > fused[b]! || (fused[a] === fused[b] && order[a]! < order[b]!);
    const top = topK(candidates, count, offset + limit, better);
    const hits: SearchHit[] = top.slice(offset).map((d) => ({ id: this.ids[d]!, score: Math.max(0, Math.min(1, fused[d]!)) }));
    return { hits, total: count, mode: useVector ? 'hybrid' : 'keyword' };
  }
}
