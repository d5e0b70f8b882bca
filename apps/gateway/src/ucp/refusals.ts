/**
 * UCP's one factory: any of our errors meant for the caller as a UCP refusal (UcpError), which
 * ucp-error.ts words as the release the request is processed at. The edge (ucp-errors.ts) calls it
 * with no context; an operation that knows more passes what it knows:
 *
 * - `pathOf`: how a domain field is named on UCP's wire (`items[2].quantity` →
 *   `$.line_items[<request index>].quantity`); an invalid request then names its path and leads
 *   its content with it. `path`: the one field every invalid request of the operation is about.
 * - `resource`: the checkout, cart or order the operation acts on. Its absence and a state that
 *   forbids the change are business outcomes about it (answered 200 with the error envelope under
 *   2026-04-08): `not_found`, and `notModifiable` (409) — not the edge's 404/405 for a path.
 * - `lines`: the request carries line items; an unknown item (`item_unavailable`) or a shortage
 *   (`out_of_stock`) is an outcome about its line (200 with the message at the line's path).
 *
 * The protocol errors keep the REST binding's statuses (checkout-rest.md "Status Codes"): 401 with
 * `WWW-Authenticate: Bearer realm="ucp"`, 403, 409 for an Idempotency-Key reused or in use, 429,
 * and 503 with `Retry-After` (none for a payment provider that is not configured: retrying will
 * not help).
 */
import { OutOfStockError } from '../checkout/checkout-errors.js';
import {
  AuthenticationError,
  AuthorizationError,
  GatewayError,
  IdempotencyError,
  InvalidRequestError,
  InvalidStateError,
  type KnownError,
  NotFoundError,
  RateLimitError,
  retryHeaders,
  ServiceUnavailableError,
} from '../kernel/errors.js';
import { PaymentProviderNotConfiguredError } from '../payments/unconfigured-payment-provider.js';
import { UcpError } from './ucp-error.js';

export interface RefusalContext {
  /** The UCP JSONPath of a domain field; an invalid request's content then starts with it. */
  pathOf?: (param: string | undefined) => string | undefined;
  /** The field every invalid request of this operation is about. */
  path?: string;
  /** The resource the operation acts on: its absence and a state that forbids the change are outcomes about it. */
  resource?: { notFound?: string; notModifiable: string };
  /** The request carries line items: an unknown item or a shortage is an outcome about its line. */
  lines?: boolean;
}

/** Seconds a platform waits before retrying a backend that is down. */
const UNAVAILABLE_RETRY_AFTER = '5';

export function ucpRefusal(error: KnownError, context: RefusalContext = {}): UcpError {
  if (error instanceof UcpError) return error;
  const refusal = refusalOf(error, context);
  refusal.cause = error;
  return refusal;
}

function refusalOf(error: KnownError, context: RefusalContext): UcpError {
  const mapped = context.pathOf?.(error.param);
  const path = mapped ?? context.path;
  const at = path ? { path } : {};
  const { message } = error;
  if (error instanceof AuthenticationError) return new UcpError('unauthorized', message, 401, { 'WWW-Authenticate': 'Bearer realm="ucp"' });
  if (error instanceof AuthorizationError) return new UcpError('insufficient_scope', message, 403);
  if (error instanceof RateLimitError) return new UcpError('rate_limit_exceeded', message, 429, retryHeaders(error));
  if (error instanceof IdempotencyError) return new UcpError(error.code, message, 409, retryHeaders(error));
  if (error instanceof NotFoundError) {
    if (context.lines && error.param?.startsWith('items[')) return new UcpError('item_unavailable', message, 200, {}, { resource: true, ...at });
    if (context.resource) return new UcpError('not_found', context.resource.notFound ?? message, 404, {}, { resource: true });
    return new UcpError('not_found', message, 404, {}, { resource: Boolean(error.param) });
  }
  if (error instanceof InvalidStateError) {
    if (context.resource) return new UcpError(context.resource.notModifiable, message, 409, {}, { resource: true });
    return new UcpError('method_not_allowed', message, 405);
  }
  if (context.lines && error instanceof OutOfStockError) return new UcpError('out_of_stock', message, 200, {}, { resource: true, ...at });
  if (error instanceof PaymentProviderNotConfiguredError) return new UcpError('service_unavailable', message, 503);
  if (error instanceof ServiceUnavailableError) return new UcpError('service_unavailable', message, 503, { 'Retry-After': UNAVAILABLE_RETRY_AFTER });
  if (error instanceof InvalidRequestError) {
    if (context.pathOf) return new UcpError('invalid_request', mapped ? `${mapped}: ${message}` : message, 400, {}, at);
    return new UcpError('invalid_request', message, 400, {}, path ? at : error.param ? { path: error.param } : {});
  }
  return new UcpError(error.code, message, error.status, retryHeaders(error));
}

/** Runs a domain call; the domain's errors become UCP refusals of `context`. */
export async function refusing<T>(work: () => Promise<T>, context: RefusalContext): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GatewayError) throw ucpRefusal(error, context);
    throw error;
  }
}
