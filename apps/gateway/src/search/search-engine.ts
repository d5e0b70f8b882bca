/**
 * The search-engine port. An engine holds the searchable text, price and vector of many
 * merchants' products and answers ranked, filtered, paged queries within one merchant.
 */
export interface SearchDocument {
  merchantId: string;
  id: string;
  title: string;
  description: string;
  vendor: string;
  category: string;
  tags: string[];
  attributes: Record<string, string[]>;
  price: number;
  /** The product's embedding (unit length), or undefined when it has none yet. */
  vector?: Float32Array | undefined;
}

export interface SearchFilters {
  /** Case-insensitive substring of the category path. */
  category?: string | undefined;
  /** Case-insensitive equality with one of the tags. */
  tag?: string | undefined;
  /** Inclusive bounds on the base price. */
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
}

export interface SearchRequest {
  merchantId: string;
  /** The shopper's query (non-blank). */
  text: string;
  /** The query's embedding; without it the engine ranks by keywords only. */
  vector?: Float32Array | undefined;
  filters: SearchFilters;
  offset: number;
  limit: number;
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
  close(): Promise<void>;
}
