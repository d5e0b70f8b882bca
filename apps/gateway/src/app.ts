/**
 * The composition root of the HTTP app: every middleware in order, then the
 * domain routes, then the error handler. It never listens; main.ts does.
 */
import express, { type Express } from 'express';
import { MemoryStore } from 'express-rate-limit';
import type { Logger } from 'pino';
import type { KeyService } from './auth/key-service.js';
import type { CatalogService } from './catalog/catalog-service.js';
import { catalogOperations } from './catalog/routes.js';
import type { CheckoutService } from './checkout/checkout-service.js';
import { checkoutOperations } from './checkout/routes.js';
import type { Config } from './config/config.js';
import { supportedApiVersions } from './contract/api-versions.js';
import { loadContract } from './contract/document.js';
import { OperationTable } from './contract/operations.js';
import { compose } from './http/compose.js';
import { operationHandlers } from './http/operation-handlers.js';
import { errorHandler } from './http/error-handler.js';
import { apiVersion } from './http/middleware/api-version.js';
import { corsPolicy } from './http/middleware/cors-policy.js';
import { jsonBody } from './http/middleware/json-body.js';
import { locale } from './http/middleware/locale.js';
import { matchOperation } from './http/middleware/match-operation.js';
import { requestId } from './http/middleware/request-id.js';
import { requestLog } from './http/middleware/request-log.js';
import { opsEndpoints, type OpsDeps } from './ops/ops-endpoints.js';
import { acpProfile } from './acp/acp-profile.js';
import { requestMetrics } from './ops/request-metrics.js';
import { authenticate, authorize } from './http/middleware/require-auth.js';
import { validate } from './http/middleware/validate.js';
import type { EmitService } from './webhooks/emit-service.js';
import { webhookOperations } from './webhooks/routes.js';
import { idempotency } from './http/middleware/idempotency.js';
import { rateLimit } from './http/middleware/rate-limit.js';
import { verifySignature } from './http/middleware/verify-signature.js';
import type { IdempotencyStore } from './idempotency/idempotency-store.js';
import { AuthFailureLimiter } from './rate-limit/auth-failure-limiter.js';
import type { RateLimitStores } from './rate-limit/stores.js';

export interface AppDeps {
  config: Pick<Config, 'env' | 'allowedOrigins' | 'basicAuth' | 'requireRequestSigning' | 'authFailureLimit' | 'authFailureWindowMs' | 'trustProxy'> &
    Partial<Pick<Config, 'orderUrlTemplate' | 'storefrontUrl' | 'publicBaseUrl' | 'validateResponses' | 'metricsToken' | 'opsRateLimit'>>;
  logger: Logger;
  /** Counters of the key limits and of failed authentications per address (default for the latter: in this process). */
  rateLimits: Pick<RateLimitStores, 'minute' | 'day'> & Partial<Pick<RateLimitStores, 'authFailures' | 'keyWindows'>>;
  idempotency: IdempotencyStore;
  keys: KeyService;
  catalog: CatalogService;
  checkout: CheckoutService;
  webhooks: EmitService;
  /** /healthz, /readyz, /metrics, /docs: the app's metrics and readiness probes (see ops/ops-endpoints.ts). */
  ops?: OpsDeps;
}

export function createApp(deps: AppDeps): Express {
  const contract = loadContract();
  const operations = new OperationTable(contract);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.config.trustProxy); // req.ip: the client, past this many proxies' X-Forwarded-For
  const ops = opsEndpoints({
    catalogLive: () => !deps.catalog.readModel.isDegraded,
    metricsToken: deps.config.metricsToken,
    perMinute: deps.config.opsRateLimit,
    ...deps.ops,
  });
  app.locals.metrics = ops.metrics; // metricsOf(req) in middleware that count something

  const failures = new AuthFailureLimiter(
    deps.rateLimits.authFailures ?? new MemoryStore(),
    { limit: deps.config.authFailureLimit, windowMs: deps.config.authFailureWindowMs },
    deps.logger,
  );
  // The edge, in order — every request passes it before any domain code runs — then the handler of
  // the contract operation the request is for: one router layer for all of it (see compose.ts).
  app.use(
    compose([
      requestId(),
      locale(),
      ops.routes, // outside the contract, no API key; not logged or counted (probes and scrapes would drown the rest)
      requestLog(deps.logger),
      requestMetrics(ops.metrics),
      corsPolicy(deps.config.allowedOrigins),
      // The ACP 2026-04-17 profile (/.well-known/acp.json, /acp/checkout_sessions…): its own version, rules and error shape, the same domain.
      acpProfile({ ...deps, failures }),
      apiVersion(supportedApiVersions()),
      matchOperation(operations),
      authenticate({ keys: deps.keys, env: deps.config.env, basicAuth: deps.config.basicAuth, failures }),
      rateLimit(deps.rateLimits, deps.logger),
      authorize(),
      ...jsonBody(),
      verifySignature({ requireAll: deps.config.requireRequestSigning }),
      ...validate(contract, { responses: deps.config.validateResponses ?? true }),
      idempotency(deps.idempotency, deps.logger),
      operationHandlers(operations.all(), {
        ...catalogOperations(deps.catalog, { jsonText: !(deps.config.validateResponses ?? true) }),
        ...checkoutOperations(deps.checkout),
        ...webhookOperations(deps.webhooks),
      }),
    ]),
  );
  app.use(errorHandler(deps.logger));
  return app;
}
