import type { Response } from 'express';
import type { GetProductData, SearchProductsData } from '../contract/types.js';
import { JSON_CONTENT_TYPE, productBytes, searchResponseBody } from './product-json.js';
import { merchantOf } from '../http/context.js';
import { inputOf, type OperationHandler, type OperationHandlers } from '../http/operation-handlers.js';
import { metricsOf } from '../http/metrics.js';
import type { CatalogService } from '../catalog/catalog-service.js';

export interface CatalogRoutesOptions {
  /**
   * Answer with JSON text made once per product (api/product-json.ts) rather than `res.json`. Off
   * while responses are validated against the contract: the validator checks what `res.json` is given.
   */
  jsonText?: boolean;
}

/** searchProducts (GET /acp/products), its /search alias, and getProduct (GET /acp/products/{product_id}). */
export function catalogOperations(catalog: CatalogService, { jsonText = false }: CatalogRoutesOptions = {}): OperationHandlers {
  const send = <T>(res: Response, body: T, bytes: (body: T) => Buffer) => (jsonText ? res.setHeader('Content-Type', JSON_CONTENT_TYPE).send(bytes(body)) : res.json(body));
  const search: OperationHandler = async (req, res) => {
    const { query } = inputOf<SearchProductsData>(req);
    send(
      res,
      await catalog.search(
        merchantOf(req.ctx),
        {
          q: query.q,
          category: query.category,
          tag: query.tag,
          minPrice: query.min_price,
          maxPrice: query.max_price,
          facets: query.facets,
          page: query.page!, // the contract's defaults are filled in at the edge
          pageSize: query.page_size!,
        },
        req.ctx.apiVersion!,
        (seconds, mode) => metricsOf(req)?.searchLatency.observe({ mode }, seconds),
      ),
      searchResponseBody,
    );
  };
  return {
    searchProducts: search,
    searchProductsAlias: search,
    getProduct: async (req, res) => {
      send(res, await catalog.get(merchantOf(req.ctx), inputOf<GetProductData>(req).path.product_id), productBytes);
    },
  };
}
