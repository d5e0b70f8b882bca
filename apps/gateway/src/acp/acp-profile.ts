/**
 * The ACP 2026-04-17 profile as one router, mounted by app.ts before our own API's edge: the
 * discovery document, then the agentic checkout operations behind the same edge middleware as
 * our API (authentication with our keys and scopes, rate limits, signatures, idempotency store)
 * plus ACP's own rules, over the same checkout domain.
 *
 *   app.use(acpProfile({ ... }));
 */
import { Router, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { KeyService } from '../auth/key-service.js';
import type { CheckoutService } from '../checkout/checkout-service.js';
import type { Config } from '../config/config.js';
import { apiVersion } from '../http/middleware/api-version.js';
import { idempotency } from '../http/middleware/idempotency.js';
import { jsonBody } from '../http/middleware/json-body.js';
import { matchOperation } from '../http/middleware/match-operation.js';
import { rateLimit } from '../http/middleware/rate-limit.js';
import { authenticate, authorize } from '../http/middleware/require-auth.js';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import type { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter.js';
import type { RateLimitStores } from '../rate-limit/stores.js';
import { AcpCheckout } from './acp-checkout.js';
import { requireBearer, requireIdempotencyKey, validateAcpRequest, verifyAcpSignature } from './acp-edge.js';
import { acpErrorHandler } from './acp-error-handler.js';
import { acpOperationTable, isAcpPath, requestSchemaOf, responseSchemaOf } from './acp-operations.js';
import { validateAcpResponses } from './acp-responses.js';
import { ACP_VERSIONS } from './acp-version.js';
import { discoveryRoutes } from './discovery.js';
import { acpRoutes } from './routes.js';

export interface AcpProfileDeps {
  config: Pick<Config, 'env' | 'basicAuth' | 'requireRequestSigning'> & Partial<Pick<Config, 'orderUrlTemplate' | 'storefrontUrl' | 'publicBaseUrl' | 'trustProxy'>>;
  logger: Logger;
  rateLimits: Pick<RateLimitStores, 'minute' | 'day'> & Partial<Pick<RateLimitStores, 'keyWindows'>>;
  idempotency: IdempotencyStore;
  keys: KeyService;
  checkout: CheckoutService;
  /** Failed authentications per client address, shared with our own API's edge. */
  failures?: AuthFailureLimiter | undefined;
}

/** Answers the profile's paths; passes every other request on untouched. */
export function acpProfile(deps: AcpProfileDeps): RequestHandler {
  const { config, logger } = deps;
  const acp = new AcpCheckout(deps.checkout, { orderUrlTemplate: config.orderUrlTemplate, storefrontUrl: config.storefrontUrl });
  const router = Router();
  router.use(validateAcpResponses(responseSchemaOf, logger));
  router.use(discoveryRoutes({ publicBaseUrl: config.publicBaseUrl, trustProxy: config.trustProxy, interventions: deps.checkout.payments.interventions }));
  router.use(apiVersion(ACP_VERSIONS, { required: true }));
  router.use(matchOperation(acpOperationTable()));
  router.use(requireBearer());
  router.use(authenticate({ keys: deps.keys, env: config.env, basicAuth: false, failures: deps.failures }));
  router.use(rateLimit(deps.rateLimits, logger));
  router.use(authorize());
  router.use(jsonBody());
  router.use(verifyAcpSignature({ requireAll: config.requireRequestSigning }));
  router.use(requireIdempotencyKey());
  router.use(validateAcpRequest(requestSchemaOf));
  router.use(idempotency(deps.idempotency, logger));
  router.use(acpRoutes(acp));
  router.use(acpErrorHandler(logger));
  return (req, res, next) => (isAcpPath(req.path) ? router(req, res, next) : next());
}
