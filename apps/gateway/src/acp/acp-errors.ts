/**
 * How the ACP profile answers errors (its ProtocolErrors, written by http/edge.ts), in ACP's flat Error shape: its own
 * AcpErrors, the shared edge's errors (authentication 401, scope 403, rate limit 429,
 * idempotency 409/422, API-Version 400 with `supported_versions`), body-parser and database
 * failures; anything unknown is logged and answered 500 `processing_error`.
 */
import { isDatabaseUnavailable } from '../db/database.js';
import { AuthenticationError, AuthorizationError, GatewayError, IdempotencyError, InvalidRequestError, InvalidStateError, NotFoundError, RateLimitError } from '../kernel/errors.js';
import type { Problem, ProtocolErrors } from '../http/edge.js';
import { MissingApiVersionError, UnsupportedApiVersionError } from '../http/middleware/api-version.js';
import { retryHeaders, statusOf } from '../http/status-table.js';
import { AcpError } from './acp-error.js';
import { toAcpError } from './domain-errors.js';

function fromEdge(error: unknown): AcpError | undefined {
  if (error instanceof AcpError) return error;
  if (error instanceof MissingApiVersionError) {
    return new AcpError(400, 'invalid_request', 'missing_api_version', error.message, undefined, { supported_versions: error.supportedVersions });
  }
  if (error instanceof UnsupportedApiVersionError) {
    return new AcpError(400, 'invalid_request', 'unsupported_api_version', error.message, undefined, { supported_versions: error.supportedVersions });
  }
  const sharedEdge =
    error instanceof AuthenticationError || error instanceof AuthorizationError || error instanceof RateLimitError || error instanceof IdempotencyError ||
    ((error instanceof NotFoundError || error instanceof InvalidStateError) && !error.param); // no such route, or not this method
  if (sharedEdge) return new AcpError(statusOf(error), 'invalid_request', error.code, error.message, undefined, {}, retryHeaders(error));
  if (error instanceof InvalidRequestError && error.param && /^[A-Z]/.test(error.param)) {
    return new AcpError(400, 'invalid_request', 'invalid', error.message, undefined); // a header (Idempotency-Key, Merchant-Id)
  }
  if (error instanceof GatewayError) return toAcpError(error);
  return undefined;
}

function fromBody(error: unknown): AcpError | undefined {
  const { type, status } = (error ?? {}) as { type?: string; status?: number };
  if (type === 'entity.too.large') return new AcpError(413, 'invalid_request', 'payload_too_large', 'Request body is larger than 1 MiB');
  if (type === 'entity.parse.failed') return new AcpError(400, 'invalid_request', 'invalid_json', `Malformed JSON body: ${(error as Error).message}`);
  if (typeof type === 'string' && status !== undefined && status >= 400 && status < 500) {
    return new AcpError(status === 415 ? 415 : 400, 'invalid_request', 'invalid', (error as Error).message);
  }
  if (isDatabaseUnavailable(error)) return new AcpError(503, 'service_unavailable', 'service_unavailable', 'The database is unavailable; retry shortly', undefined, {}, { 'Retry-After': '5' });
  return undefined;
}

const asProblem = (error: AcpError): Problem => ({ status: error.status, body: error.body(), headers: error.headers });

export const acpErrors: ProtocolErrors = {
  name: 'acp',
  problem: (error) => {
    const acp = fromEdge(error) ?? fromBody(error);
    return acp && asProblem(acp);
  },
  internalError: asProblem(new AcpError(500, 'processing_error', 'internal_error', 'Internal error; quote the Request-Id when you report it')),
};
