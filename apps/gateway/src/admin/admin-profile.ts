/**
 * The admin API as a profile of the edge (http/edge.ts): its own contract
 * (openapi/admin → @commerce-gateway/openapi/admin.json) under `/admin`, operator credentials
 * (Bearer op_…) instead of API keys, the production tier's rate limits per credential, the
 * operator's access (read or full) and merchants, validation against the contract, the audit
 * trail of every write, and one error shape (admin-errors.ts). Every operation calls the services
 * the merchant API and the CLI use.
 *
 *   edge([ucp, acp, adminProfile({ ...deps, failures }), apiProfile(deps)], logger)
 */
import type { Logger } from 'pino';
import type { KeyService } from '../auth/key-service.js';
import type { Config } from '../config/config.js';
import { OperationTable } from '../contract/operations.js';
import type { ProtocolProfile } from '../http/edge.js';
import { jsonBody } from '../http/middleware/json-body.js';
import { rateLimit } from '../http/middleware/rate-limit.js';
import { validate } from '../http/middleware/validate.js';
import type { OrderService } from '../orders/order-service.js';
import type { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter.js';
import type { RateLimitStores } from '../rate-limit/stores.js';
import { loadAdminContract } from './admin-document.js';
import { adminErrors } from './admin-errors.js';
import type { AdminServices } from './admin-services.js';
import { auditTrail } from './audit-trail.js';
import { auditOperations } from './handlers/audit.js';
import { catalogOperations } from './handlers/catalog.js';
import { commerceOperations } from './handlers/commerce.js';
import { consoleOperations } from './handlers/console.js';
import { commerceFileOperations } from './handlers/commerce-files.js';
import { keyOperations } from './handlers/keys.js';
import { merchantOperations } from './handlers/merchants.js';
import { merchantPaymentOperations } from './handlers/merchant-payments.js';
import { paymentReconcileOperations } from './handlers/payments-reconcile.js';
import { orderOperations } from './handlers/orders.js';
import { overviewOperations } from './handlers/overview.js';
import { productOperations } from './handlers/products.js';
import { webhookOperations } from './handlers/webhooks.js';
import { authenticateOperator, requireAccess } from './operator-auth.js';

export interface AdminProfileDeps {
  config: Pick<Config, 'env'> & Partial<Pick<Config, 'validateResponses' | 'publicBaseUrl' | 'adminCorsOrigins'>>;
  logger: Logger;
  rateLimits: Pick<RateLimitStores, 'minute' | 'day'> & Partial<Pick<RateLimitStores, 'keyWindows'>>;
  keys: KeyService;
  orders: OrderService;
  admin: AdminServices;
  failures?: AuthFailureLimiter;
}

/** `/admin/…` (bare `/admin` is no operation: left to the API profile's 404, as before the admin API). */
export const claimsAdminPath = (path: string): boolean => path.startsWith('/admin/');

export function adminProfile(deps: AdminProfileDeps): ProtocolProfile {
  const contract = loadAdminContract();
  const { admin } = deps;
  return {
    ...adminErrors,
    claims: claimsAdminPath,
    operations: new OperationTable(contract),
    before: [auditTrail(admin.audit)],
    guard: [
      authenticateOperator(admin.operators, admin.consoleSessions, deps.failures, { publicBaseUrl: deps.config.publicBaseUrl, trustedOrigins: deps.config.adminCorsOrigins }),
      rateLimit(deps.rateLimits, deps.logger),
      requireAccess(),
      ...jsonBody(),
      ...validate(contract, { responses: deps.config.validateResponses ?? true }),
    ],
    handlers: {
      ...merchantOperations(admin.merchants),
      ...merchantPaymentOperations(admin.paymentAccounts),
      ...paymentReconcileOperations(admin.reconciliation, admin.merchants),
      ...keyOperations(deps.keys, admin.merchants, deps.config.env),
      ...webhookOperations(admin.webhookEndpoints, admin.deliveries, admin.endpointUrls),
      ...overviewOperations(admin),
      ...orderOperations(deps.orders, admin.deliveries),
      ...commerceOperations(admin.commerce),
      ...auditOperations(admin.audit),
      ...consoleOperations(admin.consoleSessions),
      ...productOperations(admin.catalog, admin.productEdits, contract.info.version),
      ...catalogOperations(admin.catalogImports, admin.catalog, admin.merchants),
      ...commerceFileOperations(admin.commerce, admin.merchants),
    },
  };
}
