/**
 * ACP's one factory: any of our errors as ACP's Error (acp-error.ts) — for the profile's error
 * answers (acp-errors.ts) and for the checkout handlers, which know the request's line indexes.
 *
 * The shared edge's refusals keep their status in ACP's shape: authentication 401, scope 403,
 * rate limit 429, idempotency 409/422, no such route 404 or method 405, an API-Version header
 * missing or not spoken (400 with `supported_versions`), a bad header. The domain names its params
 * in our own API's terms (`items[0].product_id`, `shipping_address`); ACP names them as JSONPaths of
 * its own wire (`$.line_items[0].id`, `$.fulfillment_details.address`).
 */
import { DiscountLimitReachedError, FulfillmentOptionNotChosenError, OutOfStockError, ShippingAddressMissingError, ShippingUnavailableError } from '../checkout/checkout-errors.js';
import { MissingApiVersionError, UnsupportedApiVersionError } from '../http/middleware/api-version.js';
import { AuthenticationRequiredError, PaymentDeclinedError, UnknownPaymentHandlerError } from '../payments/payment-errors.js';
import { PaymentProviderNotConfiguredError } from '../payments/unconfigured-payment-provider.js';
import {
  AuthenticationError,
  AuthorizationError,
  IdempotencyError,
  InvalidRequestError,
  InvalidStateError,
  type KnownError,
  NotFoundError,
  RateLimitError,
  retryHeaders,
  ServiceUnavailableError,
} from '../kernel/errors.js';
import { AcpError } from './acp-error.js';

/**
 * `items[2].quantity` → `$.line_items[<request index of line 2>]` (or `$.items[…]` when the agent
 * used the RFC's name, `linesField`); other params → `$.<param>`.
 */
function acpParam(param: string | undefined, lineIndexes: readonly number[], linesField: string): string | undefined {
  if (!param) return undefined;
  const line = /^(?:items|line_items)\[(\d+)\](\.(?:product_id|variant_sku))?/.exec(param);
  if (line) return `$.${linesField}[${lineIndexes[Number(line[1])] ?? Number(line[1])}]${line[2] ? '.id' : ''}`;
  if (param.startsWith('shipping_address')) return '$.fulfillment_details.address';
  if (param === 'fulfillment_option_id' || param === 'shipping_option_id') return '$.selected_fulfillment_options';
  if (param === 'items') return `$.${linesField}`;
  return `$.${param}`;
}

/** A refusal of the shared edge (no param of the request's body: no such route, or not this method), as ACP words it. */
function fromEdge(error: KnownError): AcpError | undefined {
  if (error instanceof MissingApiVersionError) {
    return new AcpError(400, 'invalid_request', 'missing_api_version', error.message, undefined, { supported_versions: error.supportedVersions });
  }
  if (error instanceof UnsupportedApiVersionError) {
    return new AcpError(400, 'invalid_request', 'unsupported_api_version', error.message, undefined, { supported_versions: error.supportedVersions });
  }
  const sharedEdge =
    error instanceof AuthenticationError || error instanceof AuthorizationError || error instanceof RateLimitError || error instanceof IdempotencyError ||
    ((error instanceof NotFoundError || error instanceof InvalidStateError) && !error.param);
  if (sharedEdge) return new AcpError(error.status, 'invalid_request', error.code, error.message, undefined, {}, retryHeaders(error));
  if (error instanceof InvalidRequestError && error.param && /^[A-Z]/.test(error.param)) {
    return new AcpError(400, 'invalid_request', 'invalid', error.message, undefined); // a header (Idempotency-Key, Merchant-Id)
  }
  return undefined;
}

function fromDomain(error: KnownError, lineIndexes: readonly number[], linesField: string): AcpError {
  const param = acpParam(error.param, lineIndexes, linesField);
  if (error instanceof PaymentDeclinedError) return new AcpError(400, 'invalid_request', 'payment_declined', error.message, '$.payment_data');
  if (error instanceof AuthenticationRequiredError) {
    return new AcpError(400, 'invalid_request', 'requires_3ds', 'The payment needs 3-D Secure: authenticate the buyer with the session\'s authentication_metadata, then complete again with authentication_result', '$.authentication_result');
  }
  if (error instanceof UnknownPaymentHandlerError) return new AcpError(400, 'invalid_request', 'invalid', error.message, '$.payment_data.handler_id');
  if (error instanceof PaymentProviderNotConfiguredError) return new AcpError(503, 'service_unavailable', error.reason, error.message);
  if (error instanceof ServiceUnavailableError) return new AcpError(503, 'service_unavailable', 'service_unavailable', error.message, undefined, {}, { 'Retry-After': '5' });
  if (error instanceof InvalidStateError) return new AcpError(error.status, 'invalid_request', 'method_not_allowed', error.message);
  if (error instanceof NotFoundError) {
    // An unknown item is the request's fault (400, like ACP's error_400_invalid_item); an unknown session is 404.
    return error.param?.startsWith('items[') ? new AcpError(400, 'invalid_request', 'invalid', error.message, param) : new AcpError(error.status, 'invalid_request', 'not_found', error.message);
  }
  if (error instanceof ShippingUnavailableError) return new AcpError(400, 'invalid_request', 'region_restricted', error.message, '$.fulfillment_details.address.country');
  if (error instanceof OutOfStockError) return new AcpError(400, 'invalid_request', 'out_of_stock', error.message, param);
  // A code's last use went to another order: nothing is ordered, the session is priced again without
  // it (its answers show it rejected); the agent reviews the new total and completes again.
  if (error instanceof DiscountLimitReachedError) {
    return new AcpError(400, 'invalid_request', 'discount_code_usage_limit_reached', `${error.codes.join(', ')} reached its usage limit before this order could use it; the checkout session was priced again without it — review the new total and complete again`, '$.discounts.codes');
  }
  if (error instanceof ShippingAddressMissingError || error instanceof FulfillmentOptionNotChosenError) return new AcpError(400, 'invalid_request', 'missing', error.message, param);
  if (error instanceof InvalidRequestError) return new AcpError(400, 'invalid_request', 'invalid', error.message, param);
  return new AcpError(500, 'processing_error', 'internal_error', 'Internal error; quote the Request-Id when you report it');
}

/** Our error as ACP's (an AcpError as it is); `lineIndexes`: the request index of each domain line, `linesField` the request's name for its lines. */
export function toAcpError(error: KnownError, lineIndexes: readonly number[] = [], linesField = 'line_items'): AcpError {
  if (error instanceof AcpError) return error;
  const acp = fromEdge(error) ?? fromDomain(error, lineIndexes, linesField);
  acp.cause = error;
  return acp;
}
