/**
 * The composition root of the HTTP app: every middleware in order, then the
 * domain routes, then the error handler. It never listens; main.ts does.
 */
import express, { type Express } from 'express';
import { MemoryStore } from 'express-rate-limit';
import type { Logger } from 'pino';
import { acpProfile } from './acp/acp-profile.js';
import { adminProfile, claimsAdminPath } from './admin/admin-profile.js';
import type { AdminServices } from './admin/admin-services.js';
import type { KeyService } from './auth/key-service.js';
import type { CatalogService } from './catalog/catalog-service.js';
import type { CheckoutService } from './checkout/checkout-service.js';
import type { Config } from './config/config.js';
import { apiProfile } from './api/api-profile.js';
import { compose } from './http/compose.js';
import { edge } from './http/edge.js';
import { corsPolicy } from './http/middleware/cors-policy.js';
import { locale } from './http/middleware/locale.js';
import { requestId } from './http/middleware/request-id.js';
import { requestLog } from './http/middleware/request-log.js';
import type { IdempotencyStore } from './idempotency/idempotency-store.js';
import type { OrderService } from './orders/order-service.js';
import type { PaymentEventService } from './settlement/provider-events/payment-event-service.js';
import { stripeWebhooks } from './settlement/stripe-webhooks/routes.js';
import { mcpRoute } from './mcp/mcp-route.js';
import { opsEndpoints, type OpsDeps } from './ops/ops-endpoints.js';
import { requestMetrics } from './ops/request-metrics.js';
import { AuthFailureLimiter } from './rate-limit/auth-failure-limiter.js';
import type { RateLimitStores } from './rate-limit/stores.js';
import { AgentProfileFetcher } from './ucp/profile-fetcher.js';
import { loadSigningKeys, type SigningKeys } from './ucp/signing-keys.js';
import { ucpOrderOperations } from './ucp/order/ucp-order-operations.js';
import type { UcpOrderService } from './ucp/order/ucp-order-service.js';
import { ucpSimulation } from './ucp/simulation/simulate-shipping.js';
import { ucpProfile } from './ucp/ucp-profile.js';
import { UCP_VERSIONS } from './ucp/ucp-version.js';
import type { EmitService } from './webhooks/emit-service.js';

export interface AppDeps {
  config: Pick<Config, 'env' | 'allowedOrigins' | 'basicAuth' | 'requireRequestSigning' | 'authFailureLimit' | 'authFailureWindowMs' | 'trustProxy'> &
    Partial<Pick<Config, 'orderUrlTemplate' | 'storefrontUrl' | 'publicBaseUrl' | 'validateResponses' | 'metricsToken' | 'opsRateLimit' | 'adminCorsOrigins'>> &
    Partial<Pick<Config, 'ucpVersion' | 'ucpSigningKey' | 'webhookAllowPrivateTargets' | 'ucpSimulationSecret' | 'requestSignatureWindowSeconds'>> &
    /** PAYMENT_PROVIDER=stripe with STRIPE_WEBHOOK_SECRET mounts POST /payments/stripe/webhooks. */
    { paymentProvider?: string; stripeWebhookSecret?: string | undefined };
  logger: Logger;
  /** Counters of the key limits and of failed authentications per address (default for the latter: in this process). */
  rateLimits: Pick<RateLimitStores, 'minute' | 'day'> & Partial<Pick<RateLimitStores, 'authFailures' | 'keyWindows'>>;
  idempotency: IdempotencyStore;
  keys: KeyService;
  catalog: CatalogService;
  checkout: CheckoutService;
  orders: OrderService;
  webhooks: EmitService;
  /** What the PSP's webhooks say of payments, applied to orders (with PAYMENT_PROVIDER=stripe). */
  paymentEvents?: PaymentEventService;
  /** The UCP signing keys (services' persisted ring); without it, UCP_SIGNING_KEY or a key generated for this app. */
  ucpSigningKeys?: SigningKeys;
  /** Orders placed through UCP (the shipping simulation, ucp/simulation/). */
  ucpOrders?: UcpOrderService;
  /** The admin API under /admin (admin/admin-profile.ts), when given. */
  admin?: AdminServices;
  /** /healthz, /readyz, /metrics, /docs: the app's metrics and readiness probes (see ops/ops-endpoints.ts). */
  ops?: OpsDeps;
}

export function createApp(deps: AppDeps): Express {
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
  const { config } = deps;
  const signingKeys = deps.ucpSigningKeys ?? loadSigningKeys({ signingKey: config.ucpSigningKey, env: config.env });
  if (signingKeys.source === 'generated') deps.logger.info({ kid: signingKeys.signer?.kid }, 'UCP signing key generated for this process (set UCP_SIGNING_KEY to keep one)');
  const ucpVersion = config.ucpVersion ?? UCP_VERSIONS[UCP_VERSIONS.length - 1]!;
  const ucp = ucpProfile({
    ...deps,
    config: { env: config.env, webhookAllowPrivateTargets: config.webhookAllowPrivateTargets ?? false, orderUrlTemplate: config.orderUrlTemplate, storefrontUrl: config.storefrontUrl, requestSignatureWindowSeconds: config.requestSignatureWindowSeconds },
    failures,
    discovery: {
      current: ucpVersion,
      publicBaseUrl: config.publicBaseUrl,
      trustProxy: config.trustProxy,
      signingKeys: signingKeys.published,
      testHandler: config.env !== 'production',
    },
    fetcher: new AgentProfileFetcher({ allowPrivateTargets: config.webhookAllowPrivateTargets ?? false, allowHttp: config.env === 'development' }),
    operations: ucpOrderOperations(deps), // GET /ucp/orders/{id}
  });
  // One edge, three protocol profiles over the same domain: UCP (/.well-known/ucp, /ucp/…), ACP
  // 2026-04-17 on its paths (/.well-known/acp.json, /acp/checkout_sessions…), our own API on every other.
  const { serve, errors } = edge([ucp, acpProfile({ ...deps, failures }), ...(deps.admin ? [adminProfile({ ...deps, admin: deps.admin, failures })] : []), apiProfile({ ...deps, failures })], deps.logger);
  const cors = corsPolicy(config.allowedOrigins);
  const adminCors = corsPolicy(config.adminCorsOrigins, { listedOnly: true }); // /admin: no CORS header unless ADMIN_CORS_ORIGINS lists the origin
  // Every request passes the same first steps, then the profile that claims its path: one router layer (see compose.ts).
  app.use(
    compose([
      requestId(),
      locale(),
      ops.routes, // outside the contract, no API key; not logged or counted (probes and scrapes would drown the rest)
      requestLog(deps.logger),
      requestMetrics(ops.metrics),
      (req, res, next) => (req.path === '/admin' || claimsAdminPath(req.path) ? adminCors : cors)(req, res, next),
      ucpSimulation({ env: config.env, secret: config.ucpSimulationSecret, orders: deps.ucpOrders }), // POST /testing/simulate-shipping/{order_id}, not in production
      // POST /payments/stripe/webhooks: Stripe's events, before any JSON parsing (its signature covers the raw bytes), no API key.
      ...(config.paymentProvider === 'stripe' && config.stripeWebhookSecret && deps.paymentEvents
        ? [stripeWebhooks({ secret: config.stripeWebhookSecret, events: deps.paymentEvents, logger: deps.logger, livemode: config.env === 'production' })]
        : []),
      // MCP (POST /mcp): a transport over the profiles below; each tool call is one REST request to this gateway (mcp/mcp-route.ts).
      mcpRoute({ keys: deps.keys, env: config.env, basicAuth: config.basicAuth, failures, ucpVersion }),
      serve,
    ]),
  );
  app.use(errors);
  return app;
}
