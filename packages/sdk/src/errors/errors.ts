/**
 * One error class per kind of failure. Every method of `CommerceGateway` throws
 * one of these (or the abort reason of your own `signal`); catch the base class
 * to catch them all:
 *
 *   try { await gw.checkoutSessions.complete(id) }
 *   catch (error) {
 *     if (error instanceof MethodNotAllowedError) … // already completed or canceled
 *     else if (error instanceof CommerceGatewayError) console.error(error.code, error.requestId)
 *   }
 */

export interface ErrorDetails {
  /** HTTP status of the gateway's answer; undefined when there was no answer. */
  status?: number | undefined;
  /** Machine-readable name: the body's `code` or `error.type`, or one the SDK sets. */
  code: string;
  /** The `Request-Id` response header: quote it when you ask for help. */
  requestId?: string | undefined;
  /** The response body as received (parsed JSON, else text). */
  raw?: unknown;
  headers?: Headers | undefined;
  /** The Idempotency-Key the call was sent with (POST and PATCH): reuse it to retry safely later. */
  idempotencyKey?: string | undefined;
  cause?: unknown;
}

/** Base class of every error the gateway's answers (or their absence) turn into. */
export class CommerceGatewayError extends Error {
  override name = 'CommerceGatewayError';
  readonly status: number | undefined;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly raw: unknown;
  readonly headers: Headers | undefined;
  readonly idempotencyKey: string | undefined;

  constructor(message: string, details: ErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.code = details.code;
    this.requestId = details.requestId;
    this.raw = details.raw;
    this.headers = details.headers;
    this.idempotencyKey = details.idempotencyKey;
  }
}

/** 401 `authentication_error`: no, malformed, revoked or unknown key, a key of another environment, or a bad request signature. */
export class AuthenticationError extends CommerceGatewayError {
  override name = 'AuthenticationError';
}

/** 403 `authorization_error`: the key lacks the operation's scope or the merchant named in `Merchant-Id`. */
export class AuthorizationError extends CommerceGatewayError {
  override name = 'AuthorizationError';
}

/** 429 `rate_limit_exceeded`, after the SDK's own retries (if any) were used up. */
export class RateLimitError extends CommerceGatewayError {
  override name = 'RateLimitError';
  /** Seconds to wait before the next request (body `retry_after`, else the `Retry-After` header). */
  readonly retryAfter: number | undefined;

  constructor(message: string, details: ErrorDetails & { retryAfter?: number | undefined }) {
    super(message, details);
    this.retryAfter = details.retryAfter;
  }
}

/** 400 `invalid_request`, 413 `payload_too_large` and 415: the request can never succeed as sent. */
export class InvalidRequestError extends CommerceGatewayError {
  override name = 'InvalidRequestError';
  /** The offending field or parameter, when the gateway names one (e.g. `items[0].variant_sku`, `page_size`, `API-Version`). */
  readonly param: string | undefined;
  /** The API versions this gateway supports, when the `API-Version` sent was unknown. */
  readonly supportedVersions: string[] | undefined;

  constructor(message: string, details: ErrorDetails & { param?: string | undefined; supportedVersions?: string[] | undefined }) {
    super(message, details);
    this.param = details.param;
    this.supportedVersions = details.supportedVersions;
  }
}

/** 404 `not_found`: no such session or product for this merchant (another merchant's look the same). */
export class NotFoundError extends CommerceGatewayError {
  override name = 'NotFoundError';
}

/**
 * 402: the payment was not authorized, and nothing was ordered — `payment_declined` (the provider
 * declined it, or the session's payment is not authorized for exactly its total) or `requires_3ds`
 * (the buyer must authenticate on the merchant's page first). `message` gives the provider's reason.
 */
export class PaymentError extends CommerceGatewayError {
  override name = 'PaymentError';
}

/** 405 `method_not_allowed`: the operation is invalid in the resource's state, e.g. cancel of a completed session. */
export class MethodNotAllowedError extends CommerceGatewayError {
  override name = 'MethodNotAllowedError';
}

/**
 * 409 `idempotency_in_flight` (a request with the same Idempotency-Key is still running; retried
 * automatically) or 422 `idempotency_conflict` (the key was used with another body: use a new key).
 */
export class ConflictError extends CommerceGatewayError {
  override name = 'ConflictError';
}

/** 5xx: `internal_error` (500), `bad_gateway` (502, a webhook target gave no answer), `service_unavailable` (503). */
export class ServerError extends CommerceGatewayError {
  override name = 'ServerError';
}

/**
 * No answer from the gateway: refused, reset, DNS failure (`code` `connection_error`), or no
 * answer within `timeout` (`code` `timeout`). `status` is undefined; `cause` holds the fetch error.
 */
export class ConnectionError extends CommerceGatewayError {
  override name = 'ConnectionError';
}

/**
 * A success status whose body is not what the contract promises (not JSON, or failing the
 * contract's response schema): the gateway and this SDK disagree on the contract. `cause` holds
 * the validation error. Never retried.
 */
export class UnexpectedResponseError extends CommerceGatewayError {
  override name = 'UnexpectedResponseError';
}

/** Thrown by `new CommerceGateway(…)` for options that cannot work (unknown environment, key of another environment, …). */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}
