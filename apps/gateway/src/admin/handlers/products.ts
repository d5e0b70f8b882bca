import type { CatalogService } from '../../catalog/catalog-service.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import { auditTarget } from '../operator-context.js';
import type { ProductEdit, ProductEdits } from '../product-edits.js';
import { pathParam } from './page-params.js';

/** The merchant's catalog as its search sees it: the merchant API's search, for an operator (`version`: the admin contract's). */
export function productOperations(catalog: CatalogService, edits: ProductEdits, version: string): OperationHandlers {
  return {
    getMerchantProduct: async (req, res) => {
      res.json(await catalog.get(pathParam(req, 'merchant_id'), pathParam(req, 'product_id')));
    },
    updateMerchantProduct: async (req, res) => {
      const merchantId = pathParam(req, 'merchant_id');
      const productId = pathParam(req, 'product_id');
      auditTarget(req, productId, merchantId);
      res.json(await edits.update(merchantId, productId, req.body as ProductEdit));
    },
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
