/**
 * How our API answers errors (its profile's ProtocolErrors, written by http/edge.ts): its one
 * factory. Our errors (kernel/errors.ts: those whose message is for the caller), validator
 * errors, body-parser errors and database errors become the contract's two error shapes;
 * anything unknown is logged and answered with a bare 500. The admin API rewords these (admin-errors.ts).
 */
import { validatorProblem } from '../contract/schemas.js';
import { isDatabaseUnavailable, isUnstorableText } from '../db/database.js';
import { KnownError, RateLimitError, retryHeaders } from '../kernel/errors.js';
import type { Problem, ProtocolErrors } from './edge.js';
import { UnsupportedApiVersionError } from './middleware/api-version.js';

function detail(status: number, code: string, message: string, param?: string, extra: Record<string, unknown> = {}): Problem {
  return { status, body: { detail: message, code, ...(param ? { param } : {}), ...extra } };
}

/** The status the error suggests; the shape of the contract's Error for that status: `{error: {type, message}}` for 401, 403 and 429, else `{detail, code, param}`. */
function fromKnown(error: KnownError): Problem {
  const { status } = error;
  const headers = retryHeaders(error);
  if (status === 401 || status === 403 || status === 429) {
    const retryAfter = error instanceof RateLimitError ? { retry_after: error.retryAfter } : {};
    return { status, body: { error: { type: error.code, message: error.message, ...retryAfter } }, headers };
  }
  const extra = error instanceof UnsupportedApiVersionError ? { supported_versions: error.supportedVersions } : {};
  return { ...detail(status, error.code, error.message, error.param, extra), headers };
}

interface ValidatorError {
  status: number;
  message: string;
  errors?: { path?: string; message?: string }[];
}

function isValidatorError(error: unknown): error is ValidatorError {
  return typeof (error as ValidatorError)?.status === 'number' && Array.isArray((error as ValidatorError).errors);
}

function fromValidator(error: ValidatorError): Problem | undefined {
  const problem = validatorProblem(error.errors);
  const param = problem?.param;
  const message = problem?.message ?? error.message;
  switch (error.status) {
    case 400:
      return detail(400, 'invalid_request', `Invalid request: ${message}`, param);
    case 413:
      return detail(413, 'payload_too_large', 'Request body is larger than 1 MiB');
    case 415:
      return detail(415, 'invalid_request', 'Request body must be sent as application/json');
    case 404:
      return detail(404, 'not_found', error.message);
    case 405:
      return detail(405, 'method_not_allowed', error.message);
    default:
      return undefined; // 500: the response did not match the contract — a bug, logged below
  }
}

interface BodyParserError {
  type: string;
  status: number;
  message: string;
}

/** body-parser's refusals (a body that does not decompress is an InvalidRequestError by then: http/foreign-errors.ts). */
function fromBodyParser(error: unknown): Problem | undefined {
  const { type } = (error ?? {}) as Partial<BodyParserError>;
  if (typeof type !== 'string') return undefined;
  if (type === 'entity.too.large') return detail(413, 'payload_too_large', 'Request body is larger than 1 MiB');
  if (type === 'entity.parse.failed') return detail(400, 'invalid_request', `Malformed JSON body: ${(error as Error).message}`);
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return detail(415, 'invalid_request', (error as Error).message);
  }
  if (type === 'request.size.invalid' || type === 'request.aborted') return detail(400, 'invalid_request', `The request body was cut short: ${(error as Error).message}`);
  return undefined;
}

function fromDatabase(error: unknown): Problem | undefined {
  if (isUnstorableText(error)) return detail(400, 'invalid_request', 'Text must not contain the NUL character (\\u0000)');
  if (isDatabaseUnavailable(error)) {
    return detail(503, 'service_unavailable', 'The database is unavailable; retry shortly');
  }
  return undefined;
}

export const apiErrors: ProtocolErrors = {
  name: 'api',
  problem: (error) =>
    error instanceof KnownError ? (error.expose ? fromKnown(error) : undefined)
    : fromBodyParser(error) ?? (isValidatorError(error) ? fromValidator(error) : undefined) ?? fromDatabase(error),
  internalError: detail(500, 'internal_error', 'Internal error; quote the Request-Id when you report it'),
};
