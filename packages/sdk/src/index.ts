/**
 * @commerce-gateway/sdk — the public face of the package.
 *
 * - `CommerceGateway`: the client merchants use — retries, idempotency keys, typed errors,
 *   pagination, request signing (hand-written, in this folder).
 * - The generated layer, for those who want `{ data, error, response }` and no policy: the
 *   operation functions (`searchProducts`, …), the contract's types, and the generated
 *   `createClient`. Everything under ./generated is produced from the OpenAPI contract by
 *   @hey-api/openapi-ts (`pnpm generate`) and never edited by hand.
 */
export { CommerceGateway } from './commerce-gateway.js';
export type { CommerceGatewayOptions, ResponseEvent } from './config/options.js';
export { DEFAULT_API_VERSION } from './config/options.js';
export { KEY_PREFIXES, type Environment } from './config/environment.js';
export type { RequestOptions } from './http/transport.js';
export { createRequestSignerV2, signRequestV2, SIGNATURE_V2_HEADER, type RequestSignerV2, type RequestToSign } from './http/request-signer-v2.js';
export type { IterateOptions } from './resources/iterate-products.js';
export type { ProductSearchParams } from './resources/product-search-params.js';
export type { CheckoutSessions } from './resources/checkout-sessions.js';
export type { OrderListParams } from './resources/order-list-params.js';
export type { Orders } from './resources/orders.js';
export type { Products } from './resources/products.js';
export type { Webhooks } from './resources/webhooks.js';
export {
  AuthenticationError,
  AuthorizationError,
  CommerceGatewayError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  MethodNotAllowedError,
  PaymentError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnexpectedResponseError,
} from './errors/errors.js';

// The generated layer (unchanged since the first release).
export * from './generated/index.js';
export { client } from './generated/client.gen.js';
export { createClient, createConfig } from './generated/client/index.js';
export type { Client, Config, Options as ClientOptionsOf, RequestResult } from './generated/client/index.js';
