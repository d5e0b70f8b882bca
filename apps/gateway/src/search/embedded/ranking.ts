/**
 * Ranking and fusion: which products match a query and in what order. Keyword relevance is each
 * query word's best BM25F match per product (exact, prefix or typo, MATCH_FACTOR), normalised by
 * the query's idf; a product matches by words when it covers MIN_COVERAGE of the required weight,
 * by meaning when its cosine is near the best one. The fused score mixes both (RankingOptions),
 * adds ATTRIBUTE_BOOST per attribute value the query names, and a price preference scales it; ties
 * go by title order. Scratch arrays are the ranker's own, all zero between queries.
 */
import type { CatalogColumns } from '../catalog-columns.js';
import type { FacetName, PricePreference, SearchFilters, SearchHit, SearchResult, UnderstoodAttribute } from '../search-engine.js';
import type { AttributeWord } from './attribute-values.js';
import type { CosineMatrix } from './cosine-matrix.js';
import type { Feedback } from './feedback.js';
import { KeywordScores, type ScoredList } from './keyword-scores.js';
import type { Postings } from './postings.js';
import { preferPrice } from './price-preference.js';
import { MATCH_FACTOR, type QueryWord } from './query-terms.js';
import { topK } from './top-k.js';

/** A product matches the query's words when it holds words worth this share of the query's required weight (idf). */
export const MIN_COVERAGE = 0.4;
/** A word worth less than this share of the query's other required words is not looked up (see rank). */
export const NEGLIGIBLE = 1e-3;
/** Added to the score of a product that has an attribute value the query names. */
export const ATTRIBUTE_BOOST = 0.08;

export interface IndexQuery {
  text: string;
  vector: Float32Array | undefined;
  filters: SearchFilters;
  offset: number;
  limit: number;
  pricePreference?: PricePreference | undefined;
  facets?: readonly FacetName[] | undefined;
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

/** What a ranker reads of its snapshot. */
export interface RankedCatalog {
  columns: CatalogColumns;
  postings: Postings;
  matrix: CosineMatrix;
  feedback: Feedback;
  dims: number;
  attributeWords: ReadonlyMap<string, AttributeWord>;
}

/** A ranker's scratch arrays, a row each (all zero between queries, but candidates and close). */
export interface RankerScratch {
  keyword: KeywordScores;
  bonus: Float32Array;
  boosted: Int32Array;
  candidates: Int32Array;
  /** A query's products close in meaning (see rank). */
  close: Int32Array;
  fused: Float32Array;
}

export class Ranker {
  private readonly keyword: KeywordScores;
  private readonly bonus: Float32Array;
  private readonly boosted: Int32Array;
  private readonly candidates: Int32Array;
  private readonly close: Int32Array;
  private readonly fused: Float32Array;

  /**
   * `scratch`: another ranker's of as many rows, which no longer ranks (the snapshot patched from its
   * own, see MerchantIndex.patched): a million rows' scratch is 40 MB of fresh memory otherwise.
   */
  constructor(
    private readonly catalog: RankedCatalog,
    readonly scratch: RankerScratch = newScratch(catalog.columns.size),
  ) {
    if (scratch.fused.length !== catalog.columns.size) throw new RangeError('scratch of another size than the catalog');
    ({ keyword: this.keyword, bonus: this.bonus, boosted: this.boosted, candidates: this.candidates, close: this.close, fused: this.fused } = scratch);
  }

  rank(query: IndexQuery, queryWords: readonly QueryWord[], options: RankingOptions): SearchResult {
    const { columns, postings, matrix, attributeWords } = this.catalog;
    const { vector, filters, offset, limit } = query;
    const n = columns.size;
    const keyword = this.keyword;
    const { scores, covered } = keyword;
    const unmatchedIdf = Math.log(1 + (n + 0.5) / 0.5);
    // Attribute words (a colour, a material the catalog has) are wishes, not requirements, unless the query has nothing else.
    const isAttribute = queryWords.map((w) => w.matches.length > 0 && attributeWords.has(w.stem));
    const hasOther = queryWords.some((w, i) => w.matches.length > 0 && !isAttribute[i]);
    const named: AttributeWord[] = [];
    let idfSum = 0;
    let requiredSum = 0;
    // Each word's weight (its best match's idf) and whether a product must hold it, first: what the words are worth together.
    const weightOf = queryWords.map((word) => {
      if (word.matches.length === 0) return 0;
      let weight = Infinity;
      const kind = word.matches[0]!.kind;
      for (const match of word.matches) if (match.kind === kind) weight = Math.min(weight, postings.of(match.term).idf);
      return weight;
    });
    const requiredOf = queryWords.map((word, index) => word.matches.length > 0 && !(isAttribute[index] && hasOther));
    queryWords.forEach((word, index) => {
      if (word.matches.length === 0) idfSum += unmatchedIdf;
      else idfSum += weightOf[index]!;
      if (requiredOf[index]) requiredSum += weightOf[index]!;
    });
    queryWords.forEach((word, index) => {
      if (word.matches.length === 0) return;
      const weight = weightOf[index]!;
      const required = requiredOf[index]!;
      if (isAttribute[index]) {
        named.push(attributeWords.get(word.stem)!);
      }
      // A word nearly every product holds (`ikea` of `ikea ps`) is worth next to nothing beside the others: its
      // postings (the whole catalog's) are not walked. It could change a score or the coverage by at most
      // NEGLIGIBLE of the query's weight.
      if (weight < NEGLIGIBLE * (requiredSum - (required ? weight : 0))) return;
      // A word scores a document once, by its best match (exact, prefix or typo).
      const lists: ScoredList[] = word.matches.map((match) => {
        const { docs, weights, idf } = postings.of(match.term);
        // A prefix weighs as its own term (`sto` of `bar sto`: the rarer `stool` counts more than `storage`).
        const factor = (match.kind === 'prefix' ? Math.min(idf, weight * 2) : weight) * MATCH_FACTOR[match.kind];
        return { docs, weights, factor };
      });
      keyword.addWord(lists, required ? weight : 0);
    });
    const bonus = this.bonus;
    const boosted = this.boosted;
    let boostedCount = 0;
    const attributes: UnderstoodAttribute[] = named.map(({ name, value }) => ({ name, value }));
    for (const { docs } of named) {
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        if (bonus[d] === 0) boosted[boostedCount++] = d;
        bonus[d]! += ATTRIBUTE_BOOST;
      }
    }
    const mask = columns.mask(filters);
    const candidates = this.candidates;
    const fused = this.fused;
    let count = 0;
    // A blank text (a query that was only a constraint, or facets without q) lists every product the filters allow.
    const everything = query.text.trim() === '';
    const useVector = !everything && vector !== undefined && vector.length === this.catalog.dims && vector.some((x) => x !== 0);
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
      const cosines = matrix.cosines;
      const top = matrix.cosineAll(vector);
      // The best cosine over the whole catalog sets the neighbour band: whether a product matches q does not depend on the filters.
      const floor = Math.max(options.vectorFloor, top - options.vectorBand);
      // The products close in meaning (one pass, one compare a product), then the matches: those of them the filters
      // allow, and the products the words match that are not close.
      const close = this.close;
      let closeCount = 0;
      for (let d = 0; d < n; d++) if (cosines[d]! >= floor) close[closeCount++] = d;
      for (let k = 0; k < closeCount; k++) {
        const d = close[k]!;
        if (!mask || mask[d] === 1) candidates[count++] = d;
      }
      const { touched, touchedCount } = keyword;
      for (let k = 0; k < touchedCount; k++) {
        const d = touched[k]!;
        if (covered[d]! >= needed && !(cosines[d]! >= floor) && (!mask || mask[d] === 1)) candidates[count++] = d;
      }
      // Matching uses the query's own cosines; ranking, with feedback on, the cosines (of the matches only) of the query
      // moved toward its nearest products.
      let ranking = cosines;
      if (options.feedback > 0) {
        const { feedback } = this.catalog;
        ranking = feedback.cosines(feedback.moved(vector, options.feedback, close, closeCount), candidates, count);
      }
      for (let k = 0; k < count; k++) {
        const d = candidates[k]!;
        fused[d] = alpha * scores[d]! * kwNorm + (1 - alpha) * Math.max(0, Math.min(1, ranking[d]!)) + bonus[d]!;
      }
    } else {
      const { touched, touchedCount } = keyword;
      for (let k = 0; k < touchedCount; k++) {
        const d = touched[k]!;
        if (mask && mask[d] === 0) continue;
        if (!(covered[d]! >= needed)) continue;
        candidates[count++] = d;
        fused[d] = scores[d]! * kwNorm + bonus[d]!;
      }
    }
    keyword.clear();
    for (let k = 0; k < boostedCount; k++) bonus[boosted[k]!] = 0;
    if (query.pricePreference) preferPrice(query.pricePreference, columns.prices, candidates, count, fused);
    const order = columns.rank;
    const better = (a: number, b: number) => fused[a]! > fused[b]! || (fused[a] === fused[b] && order[a]! < order[b]!);
    const top = topK(candidates, count, offset + limit, better);
    const hits: SearchHit[] = top.slice(offset).map((d) => ({ id: columns.ids[d]!, score: Math.max(0, Math.min(1, fused[d]!)) }));
    const result: SearchResult = { hits, total: count, mode: useVector ? 'hybrid' : 'keyword' };
    if (attributes.length > 0) result.attributes = attributes;
    if (query.facets && query.facets.length > 0) result.facets = columns.facets(query.facets, candidates, count);
    return result;
  }
}

function newScratch(n: number): RankerScratch {
  return {
    keyword: new KeywordScores(n),
    bonus: new Float32Array(n),
    boosted: new Int32Array(n),
    candidates: new Int32Array(n),
    close: new Int32Array(n),
    fused: new Float32Array(n),
  };
}
