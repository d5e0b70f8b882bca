import type { CatalogService } from '../../catalog/catalog-service.js';
import { NotFoundError } from '../../kernel/errors.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { CatalogImports } from '../catalog-imports.js';
import type { MerchantService } from '../../merchants/merchant-service.js';
import { servesMerchant } from '../operator.js';
import { auditTarget, operatorOf } from '../operator-context.js';
import { catalogImportWire } from '../wire.js';
import { existingMerchant } from './existing-merchant.js';
import { pathParam } from './page-params.js';

/** Catalog imports (the uploaded file through `gateway catalog import`'s service) and the search index's rebuild. */
export function catalogOperations(imports: CatalogImports, catalog: Pick<CatalogService, 'searchIndex'>, merchants: Pick<MerchantService, 'exists'>): OperationHandlers {
  return {
    importCatalog: async (req, res) => {
      const merchantId = await existingMerchant(req, merchants);
      const job = await imports.start(merchantId, req.ctx.rawBody ?? Buffer.alloc(0));
      auditTarget(req, job.id, merchantId);
      res.status(202).location(`/admin/catalog/imports/${job.id}`).json(catalogImportWire(job));
    },
    getCatalogImport: async (req, res) => {
      const id = pathParam(req, 'import_id');
      const job = imports.get(id);
      if (!job || !servesMerchant(operatorOf(req), job.merchantId)) throw new NotFoundError(`No catalog import ${JSON.stringify(id)} among this credential's merchants on this replica (imports are followed in the memory of the replica that runs them)`, 'import_id');
      res.json(catalogImportWire(job));
    },
    reindexCatalog: async (req, res) => {
      const merchantId = await existingMerchant(req, merchants);
      const stats = await catalog.searchIndex.reindex([merchantId]);
      res.json({ merchant_id: merchantId, products: stats.products, embedded: stats.embedded, unembedded: stats.unembedded, embedder_error: stats.embedderError ?? null, duration_ms: Math.round(stats.ms) });
    },
  };
}
