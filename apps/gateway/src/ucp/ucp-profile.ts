/**
 * The UCP profile of the edge (http/edge.ts): discovery at `/.well-known/ucp` (discovery.ts), in
 * development a sample platform profile at `/ucp/dev/platform-profile.json` (dev-platform-profile.ts),
 * and under `/ucp` the REST operations of the official bindings (ucp-operations.ts) over the same
 * domain as our API and ACP. Every operation runs:
 *
 *   negotiation (UCP-Agent, the release) → the operation (one the request's release does not
 *   serve is not found) → our API keys (Bearer, or UCP's X-API-Key) and scopes → rate limits →
 *   body → Idempotency-Key (the store every profile shares; UCP's rule: a key reused with another
 *   body is 409) → the handler
 *
 * and every refusal is in UCP's shape for the request's release (ucp-errors.ts).
 *
 *   edge([ucpProfile(deps), acpProfile(deps), apiProfile(deps)], logger);
 */
import type { Logger } from 'pino';
import type { KeyService } from '../auth/key-service.js';
import type { CatalogService } from '../catalog/catalog-service.js';
import type { CheckoutService } from '../checkout/checkout-service.js';
import type { Config } from '../config/config.js';
import type { ProtocolProfile } from '../http/edge.js';
import { idempotency } from '../http/middleware/idempotency.js';
import { jsonBody } from '../http/middleware/json-body.js';
import { rateLimit } from '../http/middleware/rate-limit.js';
import { authenticate, authorize } from '../http/middleware/require-auth.js';
import { verifySignatureV2Only } from '../http/middleware/verify-signature.js';
import type { OperationHandlers } from '../http/operation-handlers.js';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import type { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter.js';
import type { RateLimitStores } from '../rate-limit/stores.js';
import { orderPermalink } from '../storefront/order-permalink.js';
import { PLACEHOLDER_STOREFRONT, StorefrontUrls } from '../storefront/storefront-urls.js';
import { ucpCartSource, ucpCartOperations } from './cart/cart-handlers.js';
import { ucpCatalogOperations } from './catalog/catalog-handlers.js';
import { ucpCheckoutOperations } from './checkout/checkout-operations.js';
import { UcpCheckout, type CartSource } from './checkout/ucp-checkout.js';
import { devPlatformProfileRoute } from './dev-platform-profile.js';
import { UCP_DISCOVERY_PATH, ucpDiscovery, type UcpDiscoveryOptions } from './discovery.js';
import { negotiationOf, ucpNegotiation } from './negotiation.js';
import { profileHandlers } from './payment-handlers.js';
import type { AgentProfileFetcher } from './profile-fetcher.js';
import { UcpError } from './ucp-error.js';
import { ucpErrors } from './ucp-errors.js';
import { operationSince, servesOperation, ucpOperationTable } from './ucp-operations.js';
import { UCP_PREFIX } from './ucp-version.js';

export interface UcpProfileDeps {
  config: Pick<Config, 'env' | 'webhookAllowPrivateTargets'> & Partial<Pick<Config, 'orderUrlTemplate' | 'storefrontUrl' | 'requestSignatureWindowSeconds'>>;
  discovery: UcpDiscoveryOptions;
  fetcher: AgentProfileFetcher;
  logger: Logger;
  rateLimits: Pick<RateLimitStores, 'minute' | 'day'> & Partial<Pick<RateLimitStores, 'keyWindows'>>;
  idempotency: IdempotencyStore;
  keys: KeyService;
  checkout: CheckoutService;
  catalog: CatalogService;
  failures?: AuthFailureLimiter | undefined;
  /** The carts a checkout is created from (default: the cart capability's). */
  carts?: CartSource;
  /** The order capability's operation (`ucp.get_order`, ucp/order/), by `ucp.` operationId. */
  operations?: OperationHandlers;
}

export const isUcpPath = (path: string): boolean => path === UCP_PREFIX || path.startsWith(`${UCP_PREFIX}/`);
const isDiscoveryPath = (path: string): boolean => path === UCP_DISCOVERY_PATH || path.startsWith(`${UCP_DISCOVERY_PATH}/`);

export function ucpProfile(deps: UcpProfileDeps): ProtocolProfile {
  const { config, logger, discovery } = deps;
  const { current } = discovery;
  const storefront = (merchantId: string) => new StorefrontUrls(config.storefrontUrl ?? PLACEHOLDER_STOREFRONT, merchantId);
  // UCP's test handler is the test provider's face: offered with it only. Another provider offers its own handlers.
  const provider = deps.checkout.payments.name;
  const testHandler = discovery.testHandler && provider === 'test';
  const offered: UcpDiscoveryOptions = { ...discovery, testHandler, paymentHandlers: profileHandlers(provider) };
  const checkout = new UcpCheckout(
    deps.checkout,
    {
      testHandler,
      allowPrivateWebhooks: config.webhookAllowPrivateTargets,
      orderUrl: (merchantId, orderId) => orderPermalink(config, merchantId, orderId),
      continueUrl: (merchantId, sessionId) => storefront(merchantId).checkout(sessionId),
      links: (merchantId) => [
        { type: 'terms_of_service', url: storefront(merchantId).policy('terms-of-service') },
        { type: 'privacy_policy', url: storefront(merchantId).policy('privacy-policy') },
      ],
    },
    deps.carts ?? ucpCartSource({ checkout: deps.checkout, storefrontUrl: config.storefrontUrl }),
  );
  const negotiate = ucpNegotiation({ current, fetcher: deps.fetcher });
  const operations = ucpOperationTable();
  return {
    ...ucpErrors(current),
    claims: (path) => isUcpPath(path) || isDiscoveryPath(path),
    operations,
    before: [ucpDiscovery(offered), devPlatformProfileRoute({ env: config.env, current }), negotiate],
    guard: [
      (req, _res, next) => {
        const { operationId } = req.ctx.operation!;
        const { version } = negotiationOf(req);
        if (!servesOperation(version, operationId)) throw new UcpError('not_found', `${req.method} ${req.path} is an operation of UCP ${operationSince(operationId)}; this request speaks ${version}`, 404);
        next();
      },
      authenticate({ keys: deps.keys, env: config.env, basicAuth: false, failures: deps.failures, keyHeader: 'X-API-Key' }),
      rateLimit(deps.rateLimits, logger),
      authorize(),
      ...jsonBody(),
      verifySignatureV2Only({ windowSeconds: config.requestSignatureWindowSeconds }), // keys that require v2 sign here too
      idempotency(deps.idempotency, logger),
    ],
    handlers: {
      ...ucpCheckoutOperations(checkout),
      ...ucpCatalogOperations({ catalog: deps.catalog, checkout: deps.checkout, storefrontUrl: config.storefrontUrl }),
      ...ucpCartOperations({ checkout: deps.checkout, storefrontUrl: config.storefrontUrl }),
      ...deps.operations,
    },
  };
}
