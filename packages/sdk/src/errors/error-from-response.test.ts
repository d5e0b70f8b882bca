import { describe, expect, it } from 'vitest';
import { errorFromResponse } from './error-from-response.js';
import {
  AuthenticationError,
  AuthorizationError,
  CommerceGatewayError,
  ConflictError,
  InvalidRequestError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitError,
  ServerError,
} from './errors.js';

const headers = (extra: Record<string, string> = {}) => new Headers({ 'Request-Id': 'req_1', ...extra });

describe('errorFromResponse', () => {
  it.each([
    [401, { error: { type: 'authentication_error', message: 'Unknown API key' } }, AuthenticationError, 'authentication_error'],
    [403, { error: { type: 'authorization_error', message: 'No scope' } }, AuthorizationError, 'authorization_error'],
    [429, { error: { type: 'rate_limit_exceeded', message: 'Slow down', retry_after: 7 } }, RateLimitError, 'rate_limit_exceeded'],
    [400, { detail: 'Bad', code: 'invalid_request', param: 'items[0].quantity' }, InvalidRequestError, 'invalid_request'],
    [413, { detail: 'Too large', code: 'payload_too_large' }, InvalidRequestError, 'payload_too_large'],
    [415, { detail: 'Not JSON', code: 'invalid_request' }, InvalidRequestError, 'invalid_request'],
    [404, { detail: 'No product', code: 'not_found' }, NotFoundError, 'not_found'],
    [405, { detail: 'Completed', code: 'method_not_allowed' }, MethodNotAllowedError, 'method_not_allowed'],
    [409, { detail: 'Running', code: 'idempotency_in_flight' }, ConflictError, 'idempotency_in_flight'],
    [422, { detail: 'Other body', code: 'idempotency_conflict' }, ConflictError, 'idempotency_conflict'],
    [500, { detail: 'Oops', code: 'internal_error' }, ServerError, 'internal_error'],
    [502, { detail: 'Target refused', code: 'bad_gateway' }, ServerError, 'bad_gateway'],
    [503, { detail: 'Down', code: 'service_unavailable' }, ServerError, 'service_unavailable'],
  ])('%i %o → %o', (status, body, type, code) => {
    const error = errorFromResponse(status, body, headers(), 'idem_1');
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(CommerceGatewayError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ status, code, requestId: 'req_1', raw: body, idempotencyKey: 'idem_1', name: type.name });
    expect(error.message).toBe('detail' in body ? body.detail : body.error.message);
  });

  it('keeps param and supported_versions of an invalid request', () => {
    const error = errorFromResponse(400, { detail: 'Unknown version', code: 'invalid_request', param: 'API-Version', supported_versions: ['2026-11-01'] }, headers());
    expect(error).toMatchObject({ param: 'API-Version', supportedVersions: ['2026-11-01'] });
  });

  it("takes retryAfter from the body's retry_after, else from Retry-After", () => {
    expect(errorFromResponse(429, { error: { type: 'rate_limit_exceeded', message: 'x', retry_after: 7 } }, headers({ 'Retry-After': '9' }))).toMatchObject({ retryAfter: 7 });
    expect(errorFromResponse(429, { error: { type: 'rate_limit_exceeded', message: 'x' } }, headers({ 'Retry-After': '9' }))).toMatchObject({ retryAfter: 9 });
    expect(errorFromResponse(429, '', headers())).toMatchObject({ retryAfter: undefined, code: 'rate_limit_exceeded' });
  });

  it('names the status when the body is not one of the contract’s shapes (e.g. a proxy’s HTML page)', () => {
    const error = errorFromResponse(502, '<html>Bad Gateway</html>', new Headers());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'bad_gateway', message: '<html>Bad Gateway</html>', requestId: undefined });
    expect(errorFromResponse(504, {}, new Headers())).toMatchObject({ code: 'server_error', message: 'The gateway answered HTTP 504' });
  });

  it('makes a plain CommerceGatewayError of a status the contract does not use', () => {
    const error = errorFromResponse(418, { detail: 'teapot', code: 'teapot' }, headers());
    expect(error.constructor).toBe(CommerceGatewayError);
    expect(error).toMatchObject({ status: 418, code: 'teapot' });
  });
});
