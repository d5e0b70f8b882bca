/**
 * The ACP 2026-04-17 profile of the edge (http/edge.ts): the official agentic-checkout contract
 * under `/acp`, its discovery document, its version header (required), the same shared middleware
 * as our API (authentication with our keys and scopes, rate limits, body, idempotency store) plus
 * ACP's own rules, ACP's flat Error shape, and the five checkout operations over the same domain.
 *
 *   edge([acpProfile({ ... }), apiProfile({ ... })], logger);
 */
import type { Logger } from 'pino';
import type { KeyService } from '../auth/key-service.js';
import type { CheckoutService } from '../checkout/checkout-service.js';
import type { Config } from '../config/config.js';
import type { ProtocolProfile } from '../http/edge.js';
import { idempotency } from '../http/middleware/idempotency.js';
import { jsonBody } from '../http/middleware/json-body.js';
import { rateLimit } from '../http/middleware/rate-limit.js';
import { authenticate, authorize } from '../http/middleware/require-auth.js';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import type { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter.js';
import type { RateLimitStores } from '../rate-limit/stores.js';
import { AcpCheckout } from './acp-checkout.js';
import { requireBearer, requireIdempotencyKey, validateAcpRequest, verifyAcpSignature } from './acp-edge.js';
import { acpErrors } from './acp-errors.js';
import { acpOperations } from './acp-handlers.js';
import { acpOperationTable, isAcpPath, requestSchemaOf, responseSchemaOf } from './acp-operations.js';
import { validateAcpResponses } from './acp-responses.js';
import { ACP_VERSIONS } from './acp-version.js';
import { discovery } from './discovery.js';

export interface AcpProfileDeps {
  config: Pick<Config, 'env' | 'basicAuth' | 'requireRequestSigning'> & Partial<Pick<Config, 'orderUrlTemplate' | 'storefrontUrl' | 'publicBaseUrl' | 'trustProxy' | 'requestSignatureWindowSeconds'>>;
  logger: Logger;
  rateLimits: Pick<RateLimitStores, 'minute' | 'day'> & Partial<Pick<RateLimitStores, 'keyWindows'>>;
  idempotency: IdempotencyStore;
  keys: KeyService;
  checkout: CheckoutService;
  /** Failed authentications per client address, shared with our own API's edge. */
  failures?: AuthFailureLimiter | undefined;
}

export function acpProfile(deps: AcpProfileDeps): ProtocolProfile {
  const { config, logger } = deps;
  const acp = new AcpCheckout(deps.checkout, { orderUrlTemplate: config.orderUrlTemplate, storefrontUrl: config.storefrontUrl });
  return {
    ...acpErrors,
    claims: isAcpPath,
    operations: acpOperationTable(),
    versions: { supported: ACP_VERSIONS, required: true },
    before: [
      validateAcpResponses(responseSchemaOf, logger),
      discovery({ publicBaseUrl: config.publicBaseUrl, trustProxy: config.trustProxy, interventions: deps.checkout.payments.interventions }),
    ],
    guard: [
      requireBearer(),
      authenticate({ keys: deps.keys, env: config.env, basicAuth: false, failures: deps.failures }),
      rateLimit(deps.rateLimits, logger),
      authorize(),
      ...jsonBody(),
      verifyAcpSignature({ requireAll: config.requireRequestSigning, windowSeconds: config.requestSignatureWindowSeconds }),
      requireIdempotencyKey(),
      validateAcpRequest(requestSchemaOf),
      idempotency(deps.idempotency, logger),
    ],
    handlers: acpOperations(acp),
  };
}
