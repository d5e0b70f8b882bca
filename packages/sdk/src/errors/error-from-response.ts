import {
  AuthenticationError,
  AuthorizationError,
  CommerceGatewayError,
  ConflictError,
  InvalidRequestError,
  MethodNotAllowedError,
  NotFoundError,
  PaymentError,
  RateLimitError,
  ServerError,
  type ErrorDetails,
} from './errors.js';
import { retryAfterSeconds } from './retry-after.js';

/** What the two error shapes of the contract say: `{detail, code, param?, supported_versions?}` and `{error: {type, message, retry_after?}}`. */
export interface ErrorBody {
  code?: string;
  message?: string;
  param?: string;
  retryAfter?: number;
  supportedVersions?: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function readErrorBody(raw: unknown): ErrorBody {
  if (isObject(raw) && isObject(raw.error)) {
    const { type, message, retry_after } = raw.error;
    return { code: text(type), message: text(message), retryAfter: typeof retry_after === 'number' ? retry_after : undefined };
  }
  if (isObject(raw)) {
    const versions = raw.supported_versions;
    return {
      code: text(raw.code),
      message: text(raw.detail),
      param: text(raw.param),
      supportedVersions: Array.isArray(versions) ? versions.filter((v): v is string => typeof v === 'string') : undefined,
    };
  }
  const body = text(raw)?.trim();
  return { message: body ? body.slice(0, 300) : undefined };
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'authentication_error',
  403: 'authorization_error',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'idempotency_in_flight',
  413: 'payload_too_large',
  415: 'invalid_request',
  422: 'idempotency_conflict',
  429: 'rate_limit_exceeded',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
};

/** The error class for a gateway's non-2xx answer. */
export function errorFromResponse(
  status: number,
  raw: unknown,
  headers: Headers | undefined,
  idempotencyKey?: string,
): CommerceGatewayError {
  const body = readErrorBody(raw);
  const code = body.code ?? DEFAULT_CODES[status] ?? (status >= 500 ? 'server_error' : 'http_error');
  const message = body.message ?? `The gateway answered HTTP ${status}`;
  const details: ErrorDetails = { status, code, raw, headers, requestId: headers?.get('request-id') ?? undefined, idempotencyKey };

  if (status === 401) return new AuthenticationError(message, details);
  if (status === 403) return new AuthorizationError(message, details);
  if (status === 429) return new RateLimitError(message, { ...details, retryAfter: body.retryAfter ?? retryAfterSeconds(headers) });
  if (status === 400 || status === 413 || status === 415) {
    return new InvalidRequestError(message, { ...details, param: body.param, supportedVersions: body.supportedVersions });
  }
  if (status === 402) return new PaymentError(message, details);
  if (status === 404) return new NotFoundError(message, details);
  if (status === 405) return new MethodNotAllowedError(message, details);
  if (status === 409 || status === 422) return new ConflictError(message, details);
  if (status >= 500) return new ServerError(message, details);
  return new CommerceGatewayError(message, details);
}
