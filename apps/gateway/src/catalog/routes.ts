import { Router } from 'express';
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

/** GET /acp/products, its /search alias, and GET /acp/products/{product_id}. Input is already validated. */
export function catalogRoutes(catalog: CatalogService): Router {
  const router = Router();
  router.get(['/acp/products', '/acp/products/search'], async (req, res) => {
    const query = req.query as unknown as SearchParams;
    res.json(
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
    );
  });
  router.get('/acp/products/:product_id', async (req, res) => {
    res.json(await catalog.get(merchantOf(req.ctx), req.params.product_id));
  });
  return router;
}
