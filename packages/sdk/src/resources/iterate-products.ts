import type { Product, ProductSearchResponse } from '../generated/types.gen.js';
import type { RequestOptions } from '../http/transport.js';
import type { ProductSearchParams } from './product-search-params.js';

export interface IterateOptions extends RequestOptions {
  /** Most products to yield (default 1000). `Infinity` walks every page. */
  limit?: number;
}

export const DEFAULT_ITERATE_LIMIT = 1000;
const DEFAULT_PAGE_SIZE = 100;

type Search = (params: ProductSearchParams, options: RequestOptions) => Promise<ProductSearchResponse>;

/**
 * Walks the pages of a search from `params.page` (default 1). A product already yielded is
 * skipped if a later page shows it again (the catalog may change between pages).
 */
export async function* iterateProducts(search: Search, params: ProductSearchParams, options: IterateOptions = {}): AsyncGenerator<Product, void, undefined> {
  const { limit = DEFAULT_ITERATE_LIMIT, ...requestOptions } = options;
  if (typeof limit !== 'number' || Number.isNaN(limit) || limit < 0) throw new TypeError(`limit must be a number ≥ 0 (or Infinity), got ${String(limit)}`);
  const { page: firstPage = 1, page_size: pageSize = DEFAULT_PAGE_SIZE, ...filters } = params;
  const seen = new Set<string>();
  let page = firstPage;
  while (seen.size < limit) {
    const result = await search({ ...filters, page, page_size: pageSize }, requestOptions);
    for (const product of result.items) {
      if (seen.has(product.id)) continue;
      seen.add(product.id);
      yield product;
      if (seen.size >= limit) return;
    }
    if (result.items.length < pageSize || page * pageSize >= result.total) return;
    page++;
  }
}
