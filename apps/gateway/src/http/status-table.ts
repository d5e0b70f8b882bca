/**
 * The HTTP status of each kind of domain error, for every protocol profile: written once here.
 * A profile words the body in its own shape, and says where it answers a kind otherwise (ACP:
 * an unknown item of the request is 400, not 404).
 */
import {
  AuthenticationError,
  AuthorizationError,
  type GatewayError,
  IdempotencyError,
  InvalidRequestError,
  InvalidStateError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  UpstreamError,
} from '../kernel/errors.js';

export function statusOf(error: GatewayError): number {
  if (error instanceof InvalidRequestError) return 400;
  if (error instanceof AuthenticationError) return 401;
  if (error instanceof AuthorizationError) return 403;
  // A payment the provider declined or wants authenticated (payments/payment-errors.ts): ACP and UCP answer it in their own words.
  if (error.code === 'payment_declined' || error.code === 'requires_3ds') return 402;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof InvalidStateError) return 405;
  if (error instanceof IdempotencyError) return error.code === 'idempotency_conflict' ? 422 : 409;
  if (error instanceof RateLimitError) return 429;
  if (error instanceof UpstreamError) return 502;
  if (error instanceof ServiceUnavailableError) return 503;
  return 500;
}

/** `Retry-After` where the error says when to come back (a rate limit, a key still in use). */
export function retryHeaders(error: GatewayError): Record<string, string> {
  const seconds = error instanceof RateLimitError || error instanceof IdempotencyError ? error.retryAfter : undefined;
  return seconds === undefined ? {} : { 'Retry-After': String(seconds) };
}
