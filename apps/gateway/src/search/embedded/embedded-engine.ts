/**
 * The default search engine: in this process, per merchant, hybrid BM25F + vector
 * similarity (see merchant-index.ts). Writes rebuild the merchant's snapshot and swap it in;
 * a search always sees one whole snapshot.
 */
import type { CatalogColumns } from '../catalog-columns.js';
import type { FacetName, SearchDocument, SearchEngine, SearchFacets, SearchRequest, SearchResult } from '../search-engine.js';
import { analyzeDocument, type AnalyzedDocument } from './document-analysis.js';
import { MerchantIndex } from './merchant-index.js';
import type { RankingOptions } from './ranking.js';
import { TermDictionary } from './term-dictionary.js';

export interface EmbeddedEngineOptions extends Partial<RankingOptions> {
  /** The embedder's dimensions: vectors of another length are ignored. */
  dimensions: number;
}

/**
 * Calibrated on bench/relevance (bench/relevance/calibrate.ts): band 0.10 keeps nDCG@10 and makes
 * the match set the most precise; feedback 2 (ranking only) lifts paraphrase nDCG@10 from 0.124 to 0.211.
 */
export const DEFAULT_RANKING: RankingOptions = { keywordWeight: 0.5, vectorFloor: 0.45, vectorBand: 0.1, feedback: 2 };

interface MerchantState {
  documents: Map<string, AnalyzedDocument>;
  snapshot: MerchantIndex;
}

export class EmbeddedSearchEngine implements SearchEngine {
  readonly name = 'embedded';
  readonly persistent = false;
  private readonly merchants = new Map<string, MerchantState>();
  private readonly ranking: RankingOptions;
  private readonly dictionary = new TermDictionary();
  private columnsOf: ((merchantId: string) => CatalogColumns | undefined) | undefined;

  constructor(private readonly options: EmbeddedEngineOptions) {
    const { keywordWeight, vectorFloor, vectorBand, feedback } = options;
    this.ranking = { ...DEFAULT_RANKING, ...withoutUndefined({ keywordWeight, vectorFloor, vectorBand, feedback }) };
  }

  private rebuild(merchantId: string, documents: Map<string, AnalyzedDocument>): void {
    if (documents.size === 0) {
      this.merchants.delete(merchantId);
      return;
    }
    const shared = this.sharedColumns(merchantId, documents);
    const ordered = shared ? shared.ids.map((id) => documents.get(id)!) : [...documents.values()];
    this.merchants.set(merchantId, { documents, snapshot: new MerchantIndex(ordered, this.options.dimensions, this.dictionary, shared) });
  }

  shareColumns(columnsOf: (merchantId: string) => CatalogColumns | undefined): void {
    this.columnsOf = columnsOf;
  }

  /** The catalog's columns of the merchant when they hold exactly these documents (row i: the document with ids[i]). */
  private sharedColumns(merchantId: string, documents: ReadonlyMap<string, AnalyzedDocument>): CatalogColumns | undefined {
    const columns = this.columnsOf?.(merchantId);
    if (!columns || columns.size !== documents.size) return undefined;
    return columns.ids.every((id) => documents.has(id)) ? columns : undefined;
  }

  async index(documents: readonly SearchDocument[]): Promise<void> {
    const touched = new Map<string, Map<string, AnalyzedDocument>>();
    for (const doc of documents) {
      let merchant = touched.get(doc.merchantId);
      if (!merchant) touched.set(doc.merchantId, (merchant = new Map(this.merchants.get(doc.merchantId)?.documents)));
      merchant.set(doc.id, analyzeDocument(doc, this.dictionary));
    }
    for (const [merchantId, docs] of touched) this.rebuild(merchantId, docs);
  }

  async remove(merchantId: string, ids: readonly string[]): Promise<void> {
    const current = this.merchants.get(merchantId);
    if (!current) return;
    const docs = new Map(current.documents);
    for (const id of ids) docs.delete(id);
    this.rebuild(merchantId, docs);
  }

  async replaceMerchant(merchantId: string, documents: readonly SearchDocument[]): Promise<void> {
    this.rebuild(merchantId, new Map(documents.map((doc) => [doc.id, analyzeDocument(doc, this.dictionary)])));
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    const snapshot = this.merchants.get(request.merchantId)?.snapshot;
    if (!snapshot) return { hits: [], total: 0, mode: request.vector ? 'hybrid' : 'keyword', ...(request.facets?.length ? { facets: emptyFacets(request.facets) } : {}) };
    const { text, vector, filters, offset, limit, pricePreference, facets } = request;
    return snapshot.search({ text, vector, filters, offset, limit, pricePreference, facets }, this.ranking);
  }

  spell(merchantId: string, text: string): string {
    return this.merchants.get(merchantId)?.snapshot.spell(text) ?? text;
  }

  snapshot(merchantId: string): MerchantIndex | undefined {
    return this.merchants.get(merchantId)?.snapshot;
  }

  /** Products indexed for a merchant. */
  count(merchantId: string): number {
    return this.merchants.get(merchantId)?.snapshot.size ?? 0;
  }

  async close(): Promise<void> {
    this.merchants.clear();
  }
}

function emptyFacets(names: readonly FacetName[]): SearchFacets {
  return {
    ...(names.includes('category') ? { category: [] } : {}),
    ...(names.includes('brand') ? { brand: [] } : {}),
    ...(names.includes('price') ? { price: { min: 0, max: 0, buckets: [] } } : {}),
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
