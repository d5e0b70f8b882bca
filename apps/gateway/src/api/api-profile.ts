/**
 * Our own API as a profile of the edge (http/edge.ts): the bundled contract and its operations,
 * `API-Version` (the newest when absent), our keys (X-ACP-API-Key, Bearer, Basic), request
 * signatures, validation against the contract, idempotency, and the contract's two error shapes
 * (api-errors.ts). It claims every path no other profile claimed: an unknown one is its 404.
 */
import type { Logger } from 'pino';
import type { KeyService } from '../auth/key-service.js';
import type { CatalogService } from '../catalog/catalog-service.js';
import { catalogOperations } from './catalog-operations.js';
import type { CheckoutService } from '../checkout/checkout-service.js';
import { checkoutOperations } from './checkout-operations.js';
import type { Config } from '../config/config.js';
import { supportedApiVersions } from '../contract/api-versions.js';
import { loadContract } from '../contract/document.js';
import { OperationTable } from '../contract/operations.js';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import type { OrderService } from '../orders/order-service.js';
import { orderOperations } from './order-operations.js';
import type { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter.js';
import type { RateLimitStores } from '../rate-limit/stores.js';
import type { EmitService } from '../webhooks/emit-service.js';
import { webhookOperations } from './webhook-operations.js';
import { apiErrors } from '../http/api-errors.js';
import type { ProtocolProfile } from '../http/edge.js';
import { idempotency } from '../http/middleware/idempotency.js';
import { jsonBody } from '../http/middleware/json-body.js';
import { rateLimit } from '../http/middleware/rate-limit.js';
import { authenticate, authorize } from '../http/middleware/require-auth.js';
import { validate } from '../http/middleware/validate.js';
import { verifySignature } from '../http/middleware/verify-signature.js';

export interface ApiProfileDeps {
  config: Pick<Config, 'env' | 'basicAuth' | 'requireRequestSigning'> & Partial<Pick<Config, 'validateResponses' | 'requestSignatureWindowSeconds'>>;
  logger: Logger;
  rateLimits: Pick<RateLimitStores, 'minute' | 'day'> & Partial<Pick<RateLimitStores, 'keyWindows'>>;
  idempotency: IdempotencyStore;
  keys: KeyService;
  catalog: CatalogService;
  checkout: CheckoutService;
  orders: OrderService;
  webhooks: EmitService;
  failures: AuthFailureLimiter;
}

export function apiProfile(deps: ApiProfileDeps): ProtocolProfile {
  const { config, logger } = deps;
  const contract = loadContract();
  const operations = new OperationTable(contract);
  const responses = config.validateResponses ?? true;
  return {
    ...apiErrors,
    claims: () => true,
    operations,
    versions: { supported: supportedApiVersions() },
    guard: [
      authenticate({ keys: deps.keys, env: config.env, basicAuth: config.basicAuth, failures: deps.failures }),
      rateLimit(deps.rateLimits, logger),
      authorize(),
      ...jsonBody(),
      verifySignature({ requireAll: config.requireRequestSigning, windowSeconds: config.requestSignatureWindowSeconds }),
      ...validate(contract, { responses }),
      idempotency(deps.idempotency, logger),
    ],
    handlers: {
      ...catalogOperations(deps.catalog, { jsonText: !responses }),
      ...checkoutOperations(deps.checkout),
      ...orderOperations(deps.orders),
      ...webhookOperations(deps.webhooks),
    },
  };
}
