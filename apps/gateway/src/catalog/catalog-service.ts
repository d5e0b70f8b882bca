import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { Product, ProductSearchResponse } from '../contract-types.js';
import type { CatalogStore, ProductFilter } from './catalog-store.js';

export interface SearchQuery extends ProductFilter {
  q?: string | undefined;
  page: number;
  pageSize: number;
}

export class CatalogService {
  constructor(private readonly store: CatalogStore) {}

  async get(merchantId: string, productId: string): Promise<Product> {
    const product = await this.store.get(merchantId, productId);
    if (!product) throw new NotFoundError(`No product ${JSON.stringify(productId)}`, 'product_id');
    return product;
  }

  /**
   * Without `q`: every match ordered by title then id. With `q`: ranked by relevance,
   * best first, each item with a similarity_score in [0, 1].
   */
  async search(merchantId: string, query: SearchQuery, version: string): Promise<ProductSearchResponse> {
    if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
      throw new InvalidRequestError('min_price must not be greater than max_price', 'min_price');
    }
    const page = { offset: (query.page - 1) * query.pageSize, limit: query.pageSize };
    const q = query.q?.trim();
    let items: Product[];
    let total: number;
    if (q) {
      const result = await this.store.keywordSearch(merchantId, q, query, page);
      const scores = new Map(result.hits.map((hit) => [hit.id, hit.score]));
      items = (await this.store.getMany(merchantId, result.hits.map((hit) => hit.id))).map((product) => ({
        ...product,
        similarity_score: clamp01(scores.get(product.id) ?? 0),
      }));
      total = result.total;
    } else {
      const result = await this.store.filter(merchantId, query, page);
      items = await this.store.getMany(merchantId, result.ids);
      total = result.total;
    }
    return { items, page: query.page, page_size: query.pageSize, total, version, generated_at: new Date().toISOString() };
  }
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
