import { getProduct, searchProducts, searchProductsAlias } from '../generated/sdk.gen.js';
import type { Product, ProductSearchResponse } from '../generated/types.gen.js';
import { zGetProductResponse, zSearchProductsAliasResponse, zSearchProductsResponse } from '../generated/zod.gen.js';
import type { GeneratedOperation, RequestOptions, Transport } from '../http/transport.js';
import { iterateProducts, type IterateOptions } from './iterate-products.js';
import type { ProductSearchParams } from './product-search-params.js';
import { requireId } from './require-id.js';

/**
 * The merchant's catalog (`/acp/products`).
 *
 *   const page = await gw.products.search({ q: 'oak chair', max_price: 100 });
 *   for await (const product of gw.products.iterate({ category: 'chairs' }, { limit: 500 })) …
 */
export class Products {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** One page of results (GET /acp/products): `items`, `total`, `page`, `page_size`. */
  async search(params: ProductSearchParams = {}, options?: RequestOptions): Promise<ProductSearchResponse> {
    return this.#transport.call<ProductSearchResponse>({ operation: 'searchProducts', method: 'GET', send: searchProducts as GeneratedOperation, schema: zSearchProductsResponse, query: params }, options);
  }

  /** The same search through its alias path, GET /acp/products/search (for proxies that route only that path). */
  async searchAlias(params: ProductSearchParams = {}, options?: RequestOptions): Promise<ProductSearchResponse> {
    return this.#transport.call<ProductSearchResponse>(
      { operation: 'searchProductsAlias', method: 'GET', send: searchProductsAlias as GeneratedOperation, schema: zSearchProductsAliasResponse, query: params },
      options,
    );
  }

  /** One product with its variants (GET /acp/products/{id}). */
  async retrieve(productId: string, options?: RequestOptions): Promise<Product> {
    const path = { product_id: requireId(productId, 'productId') };
    return this.#transport.call<Product>({ operation: 'getProduct', method: 'GET', send: getProduct as GeneratedOperation, schema: zGetProductResponse, path }, options);
  }

  /**
   * Every product matching the search, page after page (100 a page unless `page_size` says
   * otherwise), stopping after `limit` products (default 1000; `Infinity` for no cap).
   */
  iterate(params: ProductSearchParams = {}, options?: IterateOptions): AsyncGenerator<Product, void, undefined> {
    return iterateProducts((query, requestOptions) => this.search(query, requestOptions), params, options);
  }
}
