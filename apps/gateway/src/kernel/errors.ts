/**
 * The domain's errors. Services throw these and never pick an HTTP status: http/status-table.ts
 * gives each kind its status, and each protocol profile (http/api-errors.ts, acp/acp-errors.ts)
 * its body; http/edge.ts writes them.
 */
export abstract class GatewayError extends Error {
  abstract readonly code: string;
  constructor(
    message: string,
    /** The request field the error is about, when there is one. */
    readonly param?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Malformed or impossible input: missing items, a SKU of another product, bad filters. */
export class InvalidRequestError extends GatewayError {
  readonly code = 'invalid_request';
}

/** The thing asked for does not exist for this merchant (existence is never revealed across merchants). */
export class NotFoundError extends GatewayError {
  readonly code = 'not_found';
}

/** The operation is not valid in the resource's current state, e.g. cancel of a completed session. */
export class InvalidStateError extends GatewayError {
  readonly code = 'method_not_allowed';
}

/** An Idempotency-Key reused with another body, or still in use by a running request. */
export class IdempotencyError extends GatewayError {
  constructor(
    readonly code: 'idempotency_conflict' | 'idempotency_in_flight',
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** A downstream HTTP target (a webhook receiver) gave no answer. */
export class UpstreamError extends GatewayError {
  readonly code = 'bad_gateway';
}

/** A backend the operation needs is down or not configured. */
export class ServiceUnavailableError extends GatewayError {
  readonly code = 'service_unavailable';
}

/** Missing, malformed, revoked or wrong-environment credentials, or a failed request signature. */
export class AuthenticationError extends GatewayError {
  readonly code = 'authentication_error';
}

/** Valid credentials without the scope or merchant the request needs. */
export class AuthorizationError extends GatewayError {
  readonly code = 'authorization_error';
}

export class RateLimitError extends GatewayError {
  readonly code = 'rate_limit_exceeded';
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(message);
  }
}
