import type { CatalogService } from '../../catalog/catalog-service.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import { pathParam } from './page-params.js';

/** The merchant's catalog as its search sees it: the merchant API's search, for an operator (`version`: the admin contract's). */
export function productOperations(catalog: CatalogService, version: string): OperationHandlers {
  return {
    searchMerchantProducts: async (req, res) => {
      const query = req.ctx.query ?? {};
      const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
      res.json(
        await catalog.search(
          pathParam(req, 'merchant_id'),
          { q: text('q'), category: text('category'), page: Number(query.page ?? 1), pageSize: Number(query.page_size ?? 10) },
          version,
        ),
      );
    },
  };
}
