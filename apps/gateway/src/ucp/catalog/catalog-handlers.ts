/**
 * UCP's catalog operations by the official operationId (`ucp.` prefixed): thin — the merchant, the
 * body, the service (ucp-catalog.ts), the answer. Every business outcome is 200 (rest.md "Business
 * Outcomes", get_product's not-found included). They exist only in 2026-04-08: a request negotiated
 * at 2026-01-11 is answered `not_found` as that release words errors.
 */
import type { Request } from 'express';
import { merchantOf } from '../../http/context.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import { negotiationOf } from '../negotiation.js';
import { UcpError } from '../ucp-error.js';
import { operationSince, servesOperation } from '../ucp-operations.js';
import { UcpCatalog, type UcpCatalogDeps } from './ucp-catalog.js';

/**
 * Refuses an operation (by official operationId) on a request negotiated at a release that does
 * not serve it (2026-01-11 for the catalog and carts). The release is the platform profile's
 * (fetched once and cached; a profile that cannot be fetched or speaks no release of ours is
 * refused as negotiation words it), or the one UCP-Agent declares.
 */
export async function requireRelease(req: Request, operation: string): Promise<void> {
  const negotiation = negotiationOf(req);
  if (negotiation.agent.version === undefined) await negotiation.profile();
  const { version } = negotiation;
  if (!servesOperation(version, operation)) {
    throw new UcpError('not_found', `${operation} is an operation of UCP ${operationSince(operation)}; this request is processed at UCP ${version}, which has no such operation`, 404);
  }
}

/** The catalog operations over our catalog (`catalog`), resolving ids as `checkout` does. */
export function ucpCatalogOperations(deps: { catalog: UcpCatalogDeps['catalog']; checkout: { itemsByIds: UcpCatalogDeps['itemsByIds'] }; storefrontUrl?: string | undefined }): OperationHandlers {
  const catalog = new UcpCatalog({ catalog: deps.catalog, itemsByIds: (merchantId, ids) => deps.checkout.itemsByIds(merchantId, ids), storefrontUrl: deps.storefrontUrl });
  return {
    'ucp.search_catalog': async (req, res) => {
      await requireRelease(req, 'search_catalog');
      res.json(await catalog.search(merchantOf(req.ctx), req.body));
    },
    'ucp.lookup_catalog': async (req, res) => {
      await requireRelease(req, 'lookup_catalog');
      res.json(await catalog.lookup(merchantOf(req.ctx), req.body));
    },
    'ucp.get_product': async (req, res) => {
      await requireRelease(req, 'get_product');
      res.json(await catalog.getProduct(merchantOf(req.ctx), req.body));
    },
  };
}
