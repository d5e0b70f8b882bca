import { ConflictError, ConnectionError, RateLimitError, ServerError, type CommerceGatewayError } from '../errors/errors.js';
import { readErrorBody } from '../errors/error-from-response.js';
import { retryAfterSeconds } from '../errors/retry-after.js';

export interface RetryPolicy {
  /** First backoff step; doubles on every retry. */
  initialDelayMs: number;
  /** Ceiling of the exponential backoff. */
  maxDelayMs: number;
  /** A server asking for a longer wait than this is not retried: the error reaches the caller at once. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/**
 * Retried: no answer (network error, timeout), 409 `idempotency_in_flight`, 429 and 5xx.
 * Never: any other 4xx — the same request cannot succeed.
 */
export function isRetryable(error: CommerceGatewayError): boolean {
  if (error instanceof ConnectionError || error instanceof RateLimitError || error instanceof ServerError) return true;
  return error instanceof ConflictError && error.code === 'idempotency_in_flight';
}

/**
 * How long to wait before retry number `retry` (0 for the first): exponential backoff with
 * jitter (half fixed, half random), but never less than the server's `retry_after` (body) or
 * `Retry-After` (header). Undefined when the server asks for more than `maxRetryAfterMs`.
 */
export function retryDelayMs(error: CommerceGatewayError, retry: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY, random: () => number = Math.random): number | undefined {
  const step = Math.min(policy.initialDelayMs * 2 ** retry, policy.maxDelayMs);
  const backoff = step / 2 + random() * (step / 2);
  const serverSeconds = readErrorBody(error.raw).retryAfter ?? retryAfterSeconds(error.headers);
  if (serverSeconds === undefined) return backoff;
  const serverMs = serverSeconds * 1000;
  if (serverMs > policy.maxRetryAfterMs) return undefined;
  return Math.max(serverMs, backoff);
}
