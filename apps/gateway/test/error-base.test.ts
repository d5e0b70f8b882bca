/**
 * The one base of our errors (kernel/errors.ts): each domain error suggests the status the status
 * table (http/status-table.ts) gives it, a protocol's own error is never taken for a library's,
 * and an error not meant for the caller is answered as an internal error.
 */
import { describe, expect, it } from 'vitest';
import { AcpError } from '../src/acp/acp-error.js';
import { DiscountLimitReachedError, OutOfStockError } from '../src/checkout/checkout-errors.js';
import {
  AuthenticationError,
  AuthorizationError,
  type GatewayError,
  IdempotencyError,
  InvalidRequestError,
  InvalidStateError,
  KnownError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  UpstreamError,
} from '../src/kernel/errors.js';
import { AuthenticationRequiredError, PaymentDeclinedError, PaymentUnreachableError, UnknownPaymentHandlerError } from '../src/payments/payment-errors.js';
import { UcpError } from '../src/ucp/ucp-error.js';
import { apiErrors } from '../src/http/api-errors.js';
import { typedError } from '../src/http/foreign-errors.js';
import { UnsupportedApiVersionError } from '../src/http/middleware/api-version.js';
import { statusOf } from '../src/http/status-table.js';

const domainErrors: GatewayError[] = [
  new InvalidRequestError('bad', 'items'),
  new OutOfStockError('none left', 'items[0].quantity', 'SKU-1', 2, 0),
  new DiscountLimitReachedError(['SAVE10']),
  new UnsupportedApiVersionError('1999-01-01', ['2026-01-30']),
  new UnknownPaymentHandlerError('no such handler'),
  new AuthenticationError('who are you'),
  new AuthorizationError('not yours'),
  new PaymentDeclinedError('declined'),
  new AuthenticationRequiredError('3-D Secure', { kind: '3ds' } as never),
  new NotFoundError('no such session'),
  new InvalidStateError('completed'),
  new IdempotencyError('idempotency_conflict', 'another body'),
  new IdempotencyError('idempotency_in_flight', 'still running', 1),
  new RateLimitError('slow down', 30),
  new UpstreamError('no answer'),
  new ServiceUnavailableError('down'),
];

describe('our errors', () => {
  it.each(domainErrors.map((error) => [error.name, error] as const))('%s suggests the status the status table gives it', (_name, error) => {
    expect(error).toBeInstanceOf(KnownError);
    expect(error.expose).toBe(true);
    expect(error.status).toBe(statusOf(error));
  });

  it('keeps a protocol error as it is, though it carries a status and expose as a body-parser error does', () => {
    const ucp = new UcpError('invalid_request', 'bad', 400);
    const acp = new AcpError(400, 'invalid_request', 'invalid', 'bad');
    expect(typedError(ucp, undefined)).toBe(ucp);
    expect(typedError(acp, undefined)).toBe(acp);
  });

  it('answers an error not meant for the caller as an internal error (none of its message shown)', () => {
    expect(apiErrors.problem(new PaymentUnreachableError('Stripe could not be reached'), {} as never)).toBeUndefined();
    expect(new PaymentUnreachableError('x').name).toBe('PaymentUnreachableError');
  });
});
