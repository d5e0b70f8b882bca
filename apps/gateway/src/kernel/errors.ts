/**
 * The gateway's errors. Every error it throws on purpose derives from KnownError, which says what
 * went wrong (`code`), the HTTP status it suggests (`status`), the request field it is about
 * (`param`), and whether its message is meant for the caller (`expose`). The domain's errors
 * (GatewayError) pick no HTTP status of their own accord: each kind suggests one, and each
 * protocol's one factory (http/api-errors.ts, acp/domain-errors.ts, ucp/refusals.ts,
 * admin/admin-errors.ts) words it in its shape, with a status of its own where the protocol says
 * so; http/edge.ts writes the answer (docs/architecture.md, "One way per job").
 *
 * Two kinds of error stay plain `Error`s on purpose, since no protocol ever answers them:
 * - the operator's: a setting, a command line, a file to import (ConfigError, UsageError,
 *   ImportError, …), printed by the CLI as one line naming the problem;
 * - a module's signals to its callers (the outbound client's DeliveryError and UnsafeTargetError,
 *   TimeoutError, …), which each caller words in its own terms — a refused webhook URL is an
 *   InvalidRequestError of our API, `invalid_profile_url` of UCP, a `--url` usage error of the CLI.
 */
export abstract class KnownError extends Error {
  abstract readonly code: string;
  /** The HTTP status it suggests; a protocol may answer it otherwise (ACP: an unknown item of the request is 400, not 404). */
  abstract readonly status: number;
  /**
   * Whether its message is meant for the caller (a refusal: bad input, no such thing, a declined
   * payment). One that is not is a failure of ours the caller is answered only as an internal error.
   */
  abstract readonly expose: boolean;
  /** The request field the error is about, when there is one. */
  declare readonly param?: string;
  /** When to come back, in seconds, where the error knows (a rate limit, a key still in use): every protocol sends it as `Retry-After`. */
  declare readonly retryAfter?: number;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** `Retry-After` where the error says when to come back. */
export function retryHeaders(error: KnownError): Record<string, string> {
  return error.retryAfter === undefined ? {} : { 'Retry-After': String(error.retryAfter) };
}

/** The domain's errors: services throw these; their messages are written for the caller. */
export abstract class GatewayError extends KnownError {
  constructor(
    message: string,
    /** The request field the error is about, when there is one. */
    override readonly param?: string,
  ) {
    super(message);
  }

  readonly status: number = 500;

  readonly expose: boolean = true;
}

/** Malformed or impossible input: missing items, a SKU of another product, bad filters. */
export class InvalidRequestError extends GatewayError {
  readonly code = 'invalid_request';
  override readonly status: number = 400;
}

/** The thing asked for does not exist for this merchant (existence is never revealed across merchants). */
export class NotFoundError extends GatewayError {
  readonly code = 'not_found';
  override readonly status: number = 404;
}

/** The operation is not valid in the resource's current state, e.g. cancel of a completed session. */
export class InvalidStateError extends GatewayError {
  readonly code = 'method_not_allowed';
  override readonly status: number = 405;
}

/** An Idempotency-Key reused with another body (422), or still in use by a running request (409). */
export class IdempotencyError extends GatewayError {
  constructor(
    readonly code: 'idempotency_conflict' | 'idempotency_in_flight',
    message: string,
    override readonly retryAfter?: number,
  ) {
    super(message);
    this.status = code === 'idempotency_conflict' ? 422 : 409;
  }

  override readonly status: number;
}

/** A downstream HTTP target (a webhook receiver) gave no answer. */
export class UpstreamError extends GatewayError {
  readonly code = 'bad_gateway';
  override readonly status: number = 502;
}

/** A backend the operation needs is down or not configured. */
export class ServiceUnavailableError extends GatewayError {
  readonly code = 'service_unavailable';
  override readonly status: number = 503;
}

/** Missing, malformed, revoked or wrong-environment credentials, or a failed request signature. */
export class AuthenticationError extends GatewayError {
  readonly code = 'authentication_error';
  override readonly status: number = 401;
}

/** Valid credentials without the scope or merchant the request needs. */
export class AuthorizationError extends GatewayError {
  readonly code = 'authorization_error';
  override readonly status: number = 403;
}

export class RateLimitError extends GatewayError {
  readonly code = 'rate_limit_exceeded';
  constructor(
    message: string,
    override readonly retryAfter: number,
  ) {
    super(message);
  }

  override readonly status: number = 429;
}

