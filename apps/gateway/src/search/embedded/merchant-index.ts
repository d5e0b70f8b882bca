/**
 * One merchant's immutable search snapshot: BM25F postings (term → documents with their
 * saturated, field-weighted term frequency), an idf per term, a dense vector matrix,
 * filter columns (price, category, tags) and each document's place in title-then-id order
 * (the tie-break). Searching is synchronous and allocation-light; a change builds a new
 * snapshot (see embedded-engine.ts).
 */
import type { FacetName, PricePreference, SearchDocument, SearchFilters, SearchHit, SearchResult, UnderstoodAttribute } from '../search-engine.js';
import { attributeWords, type AttributeWord } from './attribute-values.js';
import { compareCodePoints } from './code-point-order.js';
import { cosineMatrix, type CosineMatrix } from './cosine-matrix.js';
import { countFacets, type FacetColumns } from './facet-counter.js';
import { FIELDS, K1 } from './fields.js';
import { preferPrice } from './price-preference.js';
import { MATCH_FACTOR, queryWords, type MatchKind, type QueryWord, type TermLookup } from './query-terms.js';
import type { TermDictionary } from './term-dictionary.js';
import { topK } from './top-k.js';
import { Vocabulary } from './vocabulary.js';

/** A product matches the query's words when it holds words worth this share of the query's required weight (idf). */
export const MIN_COVERAGE = 0.4;
/** Added to the score of a product that has an attribute value the query names. */
export const ATTRIBUTE_BOOST = 0.08;
const FEEDBACK_DOCS = 5;
/** Answers remembered per snapshot (see `search`). */
const REMEMBERED_ANSWERS = 256;

export interface IndexQuery {
  text: string;
  vector: Float32Array | undefined;
  filters: SearchFilters;
  offset: number;
  limit: number;
  pricePreference?: PricePreference | undefined;
  facets?: readonly FacetName[] | undefined;
}

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
    if (field.repeated && text.length < 200) ids.push(...dictionary.cached(text));
    else dictionary.analyze(text, ids);
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
  /** Pseudo-relevance feedback weight (0 = off). */
  feedback: number;
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
  private readonly matrix: CosineMatrix;
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
  private readonly covered: Float32Array;
  private readonly feedbackCosines: Float32Array;
  private readonly groupBest: Float32Array;
  private readonly bonus: Float32Array;
  private readonly attributeWords: Map<string, AttributeWord>;
  private readonly facetColumns: FacetColumns;
  private readonly wordCache = new Map<string, QueryWord[]>();
  private readonly answers = new Map<string, SearchResult>();
  private vocabulary: Vocabulary | undefined;

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
    this.matrix = cosineMatrix(n, dims);
    this.vectors = this.matrix.rows;
    this.hasVector = new Uint8Array(n);
    const categoryIds = new Map<string, number>();
    const categoryNames: string[] = [];
    const vendorIds = new Map<string, number>();
    const vendorNames: string[] = [];
    const vendorOf = new Int32Array(n);
    this.categoryOf = new Int32Array(n);
    const tagLists = new Map<string, number[]>();
    documents.forEach(({ doc }, i) => {
      if (doc.vector && doc.vector.length === dims) {
        this.vectors.set(doc.vector, i * dims);
        this.hasVector[i] = 1;
        // The engine's documents keep their vector as a view of this matrix, not a second copy (at
        // 50,000 products × 100 dimensions, 20 MB); the next snapshot copies it into its own matrix.
        doc.vector = this.vectors.subarray(i * dims, (i + 1) * dims);
      }
      const category = doc.category.toLowerCase();
      let c = categoryIds.get(category);
      if (c === undefined) {
        categoryIds.set(category, (c = categoryIds.size));
        categoryNames.push(doc.category);
      }
      this.categoryOf[i] = c;
      const vendor = doc.vendor.toLowerCase();
      let v = vendorIds.get(vendor);
      if (v === undefined) {
        vendorIds.set(vendor, (v = vendorIds.size));
        vendorNames.push(doc.vendor);
      }
      vendorOf[i] = v;
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
    this.cosines = this.matrix.cosines;
    this.covered = new Float32Array(n);
    this.feedbackCosines = new Float32Array(n);
    this.groupBest = new Float32Array(n);
    this.bonus = new Float32Array(n);
    this.attributeWords = attributeWords(documents);
    this.facetColumns = { categoryOf: this.categoryOf, categoryNames, vendorOf, vendorNames, prices: this.prices };
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

  /** The query's words with the catalog terms they match (typos forgiven, last word as a prefix), cached. */
  private words(text: string): QueryWord[] {
    const key = text.toLowerCase();
    let cached = this.wordCache.get(key);
    if (cached === undefined) {
      cached = queryWords(text, this.lookup);
      if (this.wordCache.size >= 1_000) this.wordCache.delete(this.wordCache.keys().next().value!);
      this.wordCache.set(key, cached);
    }
    return cached;
  }

  private readonly lookup: TermLookup = {
    find: (term) => {
      const id = this.dictionary.find(term);
      return id !== undefined && this.postings.has(id) ? id : undefined;
    },
    df: (term) => this.postings.get(term)?.docs.length ?? 0,
    vocabulary: () => (this.vocabulary ??= this.buildVocabulary()),
  };

  /** The catalog's terms and the words they were first seen as, each naming its term. */
  private buildVocabulary(): Vocabulary {
    const entries: (readonly [string, number])[] = [];
    for (const id of this.postings.keys()) {
      const term = this.dictionary.term(id);
      const surface = this.dictionary.surface(id);
      entries.push([term, id]);
      if (surface !== term) entries.push([surface, id]);
    }
    return new Vocabulary(entries);
  }

  /** See SearchEngine.spell: each word the catalog lacks becomes the catalog's closest term. */
  spell(text: string): string {
    const all = this.words(text);
    // Attribute words (a colour the catalog has) boost by themselves; beside other words they stay out of the meaning,
    // so that `white wardrobe` is not close to every white thing.
    const isAttribute = (w: QueryWord) => w.matches.length > 0 && this.attributeWords.has(w.stem);
    const words = all.some((w) => w.matches.length > 0 && !isAttribute(w)) ? all.filter((w) => !isAttribute(w)) : all;
    return words
      .map((word, index) => {
        const first = word.matches[0];
        if (first === undefined || first.kind === 'exact') return word.word;
        const others = words.filter((w, i) => i !== index);
        return this.dictionary.surface(others.length === 0 ? first.term : this.likeliestCompletion(word, first.kind, others));
      })
      .join(' ');
  }

  /**
   * Of a word's best matches (of one kind: 1 typo, 2 typos or prefix), the one found most often
   * beside the query's other words (`kitchen trol`: `trolley`; `corer sofa`: `corner`).
   */
  private likeliestCompletion(word: QueryWord, kind: MatchKind, others: readonly QueryWord[]): number {
    const beside = this.groupBest;
    const marked: number[] = [];
    for (const other of others) {
      for (const match of other.matches) {
        if (match.kind !== 'exact') continue;
        for (const d of this.postings.get(match.term)!.docs) {
          if (beside[d] === 0) marked.push(d);
          beside[d] = 1;
        }
      }
    }
    let best = word.matches[0]!.term;
    let bestCount = -1;
    for (const match of word.matches) {
      if (match.kind !== kind) continue;
      let count = 0;
      for (const d of this.postings.get(match.term)!.docs) count += beside[d]!;
      if (count > bestCount) [best, bestCount] = [match.term, count];
    }
    for (const d of marked) beside[d] = 0;
    return best;
  }

  /**
   * The query's answer. A snapshot never changes, so its answer to the same query (text, whether
   * a vector came with it — the same text always embeds the same — filters, page, preference,
   * facets, ranking options) is too: the latest REMEMBERED_ANSWERS are kept, least recently asked dropped first,
   * and go with the snapshot when a change replaces it. Callers must not modify an answer.
   */
  search(query: IndexQuery, options: RankingOptions): SearchResult {
    const { filters } = query;
    const key = [query.text, query.vector ? 'v' : '', filters.category, filters.tag, filters.minPrice, filters.maxPrice, query.offset, query.limit, query.pricePreference, query.facets?.join(), options.keywordWeight, options.vectorFloor, options.vectorBand, options.feedback].join('\u0000');
    let answer = this.answers.get(key);
    if (answer) this.answers.delete(key);
    else {
      answer = this.rank(query, options);
      if (this.answers.size >= REMEMBERED_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
    }
    this.answers.set(key, answer);
    return answer;
  }

  private rank(query: IndexQuery, options: RankingOptions): SearchResult {
    const { vector, filters, offset, limit } = query;
    const n = this.size;
    const scores = this.scores;
    const covered = this.covered;
    const best = this.groupBest;
    const touched: number[] = [];
    const queryWords = this.words(query.text);
    const unmatchedIdf = Math.log(1 + (n + 0.5) / 0.5);
    // Attribute words (a colour, a material the catalog has) are wishes, not requirements, unless the query has nothing else.
    const isAttribute = queryWords.map((w) => w.matches.length > 0 && this.attributeWords.has(w.stem));
    const hasOther = queryWords.some((w, i) => w.matches.length > 0 && !isAttribute[i]);
    const named: AttributeWord[] = [];
    let idfSum = 0;
    let requiredSum = 0;
    queryWords.forEach((word, index) => {
      if (word.matches.length === 0) {
        idfSum += unmatchedIdf;
        return;
      }
      let weight = Infinity;
      const kind = word.matches[0]!.kind;
      for (const match of word.matches) if (match.kind === kind) weight = Math.min(weight, this.postings.get(match.term)!.idf);
      idfSum += weight;
      const required = !(isAttribute[index] && hasOther);
      if (required) requiredSum += weight;
      if (isAttribute[index]) {
        named.push(this.attributeWords.get(word.stem)!);
      }
      // A word scores a document once, by its best match (exact, prefix or typo).
      const group: number[] = [];
      for (const match of word.matches) {
        const { docs, weights, idf } = this.postings.get(match.term)!;
        // A prefix weighs as its own term (`sto` of `bar sto`: the rarer `stool` counts more than `storage`).
        const factor = (match.kind === 'prefix' ? Math.min(idf, weight * 2) : weight) * MATCH_FACTOR[match.kind];
        for (let j = 0; j < docs.length; j++) {
          const d = docs[j]!;
          const value = factor * weights[j]!;
          if (best[d] === 0) group.push(d);
          if (value > best[d]!) best[d] = value;
        }
      }
      for (const d of group) {
        if (scores[d] === 0) touched.push(d);
        scores[d]! += best[d]!;
        if (required) covered[d]! += weight;
        best[d] = 0;
      }
    });
    const bonus = this.bonus;
    const boosted: number[] = [];
    const attributes: UnderstoodAttribute[] = named.map(({ name, value }) => ({ name, value }));
    for (const { docs } of named) {
      for (const d of docs) {
        if (bonus[d] === 0) boosted.push(d);
        bonus[d]! += ATTRIBUTE_BOOST;
      }
    }
    const mask = this.allowed(filters);
    const candidates = this.candidates;
    const fused = this.fused;
    let count = 0;
    // A blank text (a query that was only a constraint, or facets without q) lists every product the filters allow.
    const everything = query.text.trim() === '';
    const useVector = !everything && vector !== undefined && vector.length === this.dims && vector.some((x) => x !== 0);
    const kwNorm = idfSum > 0 ? 1 / idfSum : 0;
    // A product matches lexically when its covered weight reaches this (never without required words).
    const needed = requiredSum > 0 ? requiredSum * MIN_COVERAGE - 1e-9 : Infinity;
    if (everything) {
      for (let d = 0; d < n; d++) {
        if (mask && mask[d] === 0) continue;
        candidates[count++] = d;
        fused[d] = 1;
      }
    } else if (useVector) {
      const alpha = options.keywordWeight;
      const cosines = this.cosines;
      const top = this.matrix.cosineAll(vector);
      // The best cosine over the whole catalog sets the neighbour band: whether a product matches q does not depend on the filters.
      const floor = Math.max(options.vectorFloor, top - options.vectorBand);
      for (let d = 0; d < n; d++) {
        if (mask && mask[d] === 0) continue;
        if (covered[d]! >= needed || cosines[d]! >= floor) candidates[count++] = d;
      }
      // Matching uses the query's own cosines; ranking, with feedback on, the cosines (of the matches only) of the query
      // moved toward its nearest products.
      let ranking = cosines;
      if (options.feedback > 0) {
        ranking = this.feedbackCosines;
        const moved = this.withFeedback(vector, options.feedback);
        for (let k = 0; k < count; k++) ranking[candidates[k]!] = this.cosine(moved, candidates[k]!);
      }
      for (let k = 0; k < count; k++) {
        const d = candidates[k]!;
        fused[d] = alpha * scores[d]! * kwNorm + (1 - alpha) * Math.max(0, Math.min(1, ranking[d]!)) + bonus[d]!;
      }
    } else {
      for (const d of touched) {
        if (mask && mask[d] === 0) continue;
        if (!(covered[d]! >= needed)) continue;
        candidates[count++] = d;
        fused[d] = scores[d]! * kwNorm + bonus[d]!;
      }
    }
    for (const d of touched) {
      scores[d] = 0;
      covered[d] = 0;
    }
    for (const d of boosted) bonus[d] = 0;
    if (query.pricePreference) preferPrice(query.pricePreference, this.prices, candidates, count, fused);
    const order = this.order;
    const better = (a: number, b: number) => fused[a]! > fused[b]! || (fused[a] === fused[b] && order[a]! < order[b]!);
    const top = topK(candidates, count, offset + limit, better);
    const hits: SearchHit[] = top.slice(offset).map((d) => ({ id: this.ids[d]!, score: Math.max(0, Math.min(1, fused[d]!)) }));
    const result: SearchResult = { hits, total: count, mode: useVector ? 'hybrid' : 'keyword' };
    if (attributes.length > 0) result.attributes = attributes;
    if (query.facets && query.facets.length > 0) result.facets = countFacets(query.facets, this.facetColumns, candidates, count);
    return result;
  }

  /**
   * Pseudo-relevance feedback (Rocchio): the query moved toward the mean vector of its
   * FEEDBACK_DOCS nearest products (this.cosines must hold the query's cosines).
   */
  private withFeedback(vector: Float32Array, weight: number): Float32Array {
    const n = this.size;
    const cosines = this.cosines;
    // The FEEDBACK_DOCS best cosines, by insertion into a short sorted list.
    const nearest: number[] = [];
    for (let d = 0; d < n; d++) {
      const c = cosines[d]!;
      if (nearest.length === FEEDBACK_DOCS && c <= cosines[nearest[FEEDBACK_DOCS - 1]!]!) continue;
      let at = nearest.length < FEEDBACK_DOCS ? nearest.length : FEEDBACK_DOCS - 1;
      while (at > 0 && cosines[nearest[at - 1]!]! < c) {
        if (at < FEEDBACK_DOCS) nearest[at] = nearest[at - 1]!;
        at--;
      }
      nearest[at] = d;
    }
    const dims = this.dims;
    const out = Float32Array.from(vector);
    for (const d of nearest) for (let i = 0; i < dims; i++) out[i]! += (weight / nearest.length) * this.vectors[d * dims + i]!;
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += out[i]! * out[i]!;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < dims; i++) out[i]! /= norm;
    return out;
  }

  /** One product's cosine to a unit vector (0 without a vector). */
  private cosine(vector: Float32Array, d: number): number {
    if (this.hasVector[d] !== 1) return 0;
    const dims = this.dims;
    const m = this.vectors;
    const base = d * dims;
    let sum = 0;
    for (let i = 0; i < dims; i++) sum += vector[i]! * m[base + i]!;
    return sum;
  }
}
