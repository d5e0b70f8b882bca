import { Router, type Response } from 'express';
import { productJson, searchResponseBody } from './product-json.js';
import { merchantOf } from '../http/context.js';
import { metricsOf } from '../ops/metrics.js';
import type { CatalogService } from './catalog-service.js';
import type { FacetName } from '../search/search-engine.js';

interface SearchParams {
  q?: string;
  category?: string;
  tag?: string;
  min_price?: number;
  max_price?: number;
  facets?: FacetName[];
  page: number;
  page_size: number;
}

export interface CatalogRoutesOptions {
  /**
   * Answer with JSON text made once per product (product-json.ts) rather than `res.json`. Off
   * while responses are validated against the contract: the validator checks what `res.json` is given.
   */
  jsonText?: boolean;
}

/** GET /acp/products, its /search alias, and GET /acp/products/{product_id}. Input is already validated. */
export function catalogRoutes(catalog: CatalogService, { jsonText = false }: CatalogRoutesOptions = {}): Router {
  const router = Router();
  const send = <T>(res: Response, body: T, text: (body: T) => string | Buffer) => (jsonText ? res.type('application/json').send(text(body)) : res.json(body));
  router.get(['/acp/products', '/acp/products/search'], async (req, res) => {
    const query = req.query as unknown as SearchParams;
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
          page: query.page,
          pageSize: query.page_size,
        },
        req.ctx.apiVersion!,
        (seconds, mode) => metricsOf(req)?.searchLatency.observe({ mode }, seconds),
      ),
      searchResponseBody,
    );
  });
  router.get('/acp/products/:product_id', async (req, res) => {
    send(res, await catalog.get(merchantOf(req.ctx), req.params.product_id), productJson);
  });
  return router;
}
