/**
 * How the UCP profile answers errors (its ProtocolErrors, written by http/edge.ts), in the shape
 * of the release the request is processed at (ucp-error.ts). Protocol errors keep the status the
 * REST binding gives them (checkout-rest.md "Status Codes"; overview.md "Protocol Errors"): 401
 * (with `WWW-Authenticate: Bearer realm="ucp"`), 403, 409 for an Idempotency-Key reused with
 * another body — or still in use —, 429 and 503 with `Retry-After`; the body is `{code, content}`.
 * Anything unknown is logged and answered 500 `internal_error`.
 */
import type { Request } from 'express';
import { isDatabaseUnavailable } from '../db/database.js';
import { AuthenticationError, AuthorizationError, IdempotencyError, InvalidRequestError, InvalidStateError, KnownError, NotFoundError, RateLimitError } from '../kernel/errors.js';
import type { Problem, ProtocolErrors } from '../http/edge.js';
import { retryHeaders } from '../http/status-table.js';
import { answerVersion } from './negotiation.js';
import { UcpError } from './ucp-error.js';
import type { UcpVersion } from './ucp-version.js';

/** UCP's factory for the edge: our errors (those for the caller) as UCP refusals (the checkout's, which knows its request's lines, is checkout/domain-errors.ts). */
function fromEdge(error: unknown): UcpError | undefined {
  if (error instanceof UcpError) return error;
  if (!(error instanceof KnownError) || !error.expose) return undefined;
  const headers = retryHeaders(error);
  if (error instanceof AuthenticationError) return new UcpError('unauthorized', error.message, 401, { 'WWW-Authenticate': 'Bearer realm="ucp"' });
  if (error instanceof AuthorizationError) return new UcpError('insufficient_scope', error.message, 403);
  if (error instanceof RateLimitError) return new UcpError('rate_limit_exceeded', error.message, 429, headers);
  if (error instanceof IdempotencyError) return new UcpError(error.code, error.message, 409, headers);
  if (error instanceof NotFoundError) return new UcpError('not_found', error.message, 404, {}, { resource: Boolean(error.param) });
  if (error instanceof InvalidStateError) return new UcpError('method_not_allowed', error.message, 405);
  if (error instanceof InvalidRequestError) return new UcpError('invalid_request', error.message, 400, {}, error.param ? { path: error.param } : {});
  return new UcpError(error.code, error.message, error.status, headers);
}

function fromBody(error: unknown): UcpError | undefined {
  const { type, status } = (error ?? {}) as { type?: string; status?: number };
  if (type === 'entity.too.large') return new UcpError('payload_too_large', 'Request body is larger than 1 MiB', 413);
  if (type === 'entity.parse.failed') return new UcpError('invalid_json', `Malformed JSON body: ${(error as Error).message}`, 400);
  if (typeof type === 'string' && status !== undefined && status >= 400 && status < 500) return new UcpError('invalid_request', (error as Error).message, status === 415 ? 415 : 400);
  if (isDatabaseUnavailable(error)) return new UcpError('service_unavailable', 'The database is unavailable; retry shortly', 503, { 'Retry-After': '5' });
  return undefined;
}

export function ucpErrors(current: UcpVersion): ProtocolErrors {
  const problemOf = (error: UcpError, req?: Request): Problem => {
    const { status, body } = error.answer(req ? answerVersion(req, current) : current);
    return { status, body, headers: error.headers };
  };
  return {
    name: 'ucp',
    problem: (error, req) => {
      const ucp = fromEdge(error) ?? fromBody(error);
      return ucp && problemOf(ucp, req);
    },
    internalError: problemOf(new UcpError('internal_error', 'Internal error; quote the Request-Id when you report it', 500)),
  };
}
