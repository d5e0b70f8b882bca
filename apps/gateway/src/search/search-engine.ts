/**
 * The search-engine port. An engine holds the searchable text, price and vector of many
 * merchants' products and answers ranked, filtered, paged queries within one merchant.
 */
import type { CatalogColumns } from './catalog-columns.js';
import type { ProductFilter } from './filter.js';
import type { FacetName, SearchFacets } from './facets.js';
import type { IndexState } from './embedded/index-state.js';
import type { SearchDocument } from './search-document.js';

export type { FacetName, FacetValue, PriceBucket, SearchFacets } from './facets.js';
export type { SearchDocument } from './search-document.js';

/** What the filters mean is written once, in filter.ts. */
export type SearchFilters = ProductFilter;

export type PricePreference = 'low' | 'high';

export interface SearchRequest {
  merchantId: string;
  /** The words to search (query understanding has taken out prices and price words); blank: every product the filters allow. */
  text: string;
  /** The query's embedding; without it the engine ranks by keywords only. */
  vector?: Float32Array | undefined;
  filters: SearchFilters;
  offset: number;
  limit: number;
  /** Rank cheaper (low) or dearer (high) products higher among equally good matches. */
  pricePreference?: PricePreference | undefined;
  /** Facets to count over the whole match set (not just the page). */
  facets?: readonly FacetName[] | undefined;
}

/** An attribute value of the catalog that the query named (it boosts the products that have it). */
export interface UnderstoodAttribute {
  name: string;
  value: string;
}

export interface SearchHit {
  id: string;
  /** Relevance in [0, 1]; hits come best first, scores non-increasing. */
  score: number;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Every match of the query and filters, not just this page. */
  total: number;
  mode: 'hybrid' | 'keyword';
  /** The facets asked for, counted over every match. */
  facets?: SearchFacets | undefined;
  /** Attribute values of the catalog the query named. */
  attributes?: UnderstoodAttribute[] | undefined;
}

export interface SearchEngine {
  readonly name: string;
  /** True when the index outlives this process (shared by every gateway), false when it lives in memory. */
  readonly persistent: boolean;
  /** Adds or replaces documents (by merchant and id). */
  index(documents: readonly SearchDocument[]): Promise<void>;
  remove(merchantId: string, ids: readonly string[]): Promise<void>;
  /** Replaces everything a merchant has in the index. */
  replaceMerchant(merchantId: string, documents: readonly SearchDocument[]): Promise<void>;
  search(request: SearchRequest): Promise<SearchResult>;
  /**
   * The query as the catalog spells it: words with a typo or left unfinished replaced by the
   * catalog's closest term (what the query's embedding should be made of). Optional: engines
   * that correct typos themselves (Meilisearch) leave it out.
   */
  spell?(merchantId: string, text: string): string;
  /**
   * What a merchant's answers currently come from, when the engine answers from an immutable
   * snapshot in memory (a write replaces it): the same object for as long as every answer stays
   * the same. Optional: an engine whose index changes under it (Meilisearch) leaves it out.
   */
  snapshot?(merchantId: string): object | undefined;
  /**
   * Where the catalog's own columns of a merchant's products are (the read model's: filters, facets,
   * title order): an in-memory engine builds its snapshot on them whenever they hold exactly the
   * documents it indexes, rather than make its own. Optional: engines with their own storage leave it out.
   */
  shareColumns?(columnsOf: (merchantId: string) => CatalogColumns | undefined): void;
  /**
   * Replaces everything a merchant has, streamed in batch by batch (a large catalog is never held
   * whole as documents); what was indexed before answers until `finish`. `sharedColumns`: `finish`
   * is given the catalog's own columns of exactly the documents added, in their order. Optional:
   * engines without it are given the whole catalog at once (replaceMerchant).
   */
  load?(merchantId: string, options: { sharedColumns: boolean }): EngineLoad;
  /** A merchant's index as arrays, to persist (catalog/read-model/catalog-snapshots.ts). Optional: in-memory engines only. */
  state?(merchantId: string): IndexState | undefined;
  /** Holds a merchant's index as a persisted `state` has it, on the catalog's columns of the same rows (the state's arrays become the engine's own). */
  restore?(merchantId: string, state: IndexState, columns: CatalogColumns): void;
  close(): Promise<void>;
}

/** A merchant's catalog streamed into an engine (SearchEngine.load). */
export interface EngineLoad {
  add(documents: readonly SearchDocument[]): void;
  /** Swaps the loaded catalog in (an in-memory engine's build takes seconds at a million products: it lets other work run between its steps). */
  finish(columns?: CatalogColumns): Promise<void>;
}
