import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { Product, ProductSearchResponse } from '../contract-types.js';
import type { IndexStats } from './search-indexer.js';
import type { CatalogSearch } from './catalog-search.js';
import type { CatalogStore, ProductFilter } from './catalog-store.js';
import type { FacetName } from '../search/search-engine.js';
import { understanding } from './query-understanding.js';

export interface SearchQuery extends ProductFilter {
  q?: string | undefined;
  /** Facets to count over every match (see search/embedded/facet-counter.ts). */
  facets?: readonly FacetName[] | undefined;
  page: number;
  pageSize: number;
}

export class CatalogService {
  constructor(
    private readonly store: CatalogStore,
    readonly searchIndex: CatalogSearch,
  ) {}

  async get(merchantId: string, productId: string): Promise<Product> {
    const product = await this.store.get(merchantId, productId);
    if (!product) throw new NotFoundError(`No product ${JSON.stringify(productId)}`, 'product_id');
    return product;
  }

  /**
   * Without `q` (or with a blank one): every match of the filters, ordered by title then id,
   * from the database. With `q`: hybrid search (keywords and meaning) by the search engine,
   * ranked best first, each item with a similarity_score in [0, 1].
   */
  async search(
    merchantId: string,
    query: SearchQuery,
    version: string,
    /** Told how long the engine took for a query with q, and whether it ranked hybrid or by keywords only. */
    onSearch?: (seconds: number, mode: 'hybrid' | 'keyword') => void,
  ): Promise<ProductSearchResponse> {
    if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
      throw new InvalidRequestError('min_price must not be greater than max_price', 'min_price');
    }
    const page = { offset: (query.page - 1) * query.pageSize, limit: query.pageSize };
    const filters = { category: query.category, tag: query.tag, minPrice: query.minPrice, maxPrice: query.maxPrice };
    const q = query.q?.trim();
    let items: Product[];
    let total: number;
    let extra: Pick<ProductSearchResponse, 'query_understanding' | 'facets'> = {};
    if (q) {
      const started = performance.now();
      const result = await this.searchIndex.search(merchantId, q, filters, page, { facets: query.facets });
      onSearch?.((performance.now() - started) / 1000, result.mode);
      extra = { query_understanding: understanding(result.plan, result.attributes), ...(result.facets ? { facets: result.facets } : {}) };
      const scores = new Map(result.hits.map((hit) => [hit.id, hit.score]));
      items = (await this.store.getMany(merchantId, result.hits.map((hit) => hit.id))).map((product) => ({
        ...product,
        similarity_score: scores.get(product.id) ?? 0,
      }));
      total = result.total;
    } else {
      const result = await this.store.filter(merchantId, filters, page);
      items = await this.store.getMany(merchantId, result.ids);
      total = result.total;
      // Facets without q: counted by the search engine over every product the filters allow.
      if (query.facets?.length) extra = { facets: (await this.searchIndex.search(merchantId, '', filters, { offset: 0, limit: 0 }, { facets: query.facets })).facets };
    }
    return { items, page: query.page, page_size: query.pageSize, total, version, generated_at: new Date().toISOString(), ...extra };
  }

  /** Builds the search index (start-up); see CatalogSearch. */
  warmUp(): Promise<IndexStats | undefined> {
    return this.searchIndex.warmUp();
  }

  close(): Promise<void> {
    return this.searchIndex.close();
  }
}
