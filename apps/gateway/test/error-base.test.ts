/**
 * The one base of our errors (kernel/errors.ts): each domain error suggests its status (and
 * `Retry-After` where it knows when), each protocol's factory words it (UCP: refusals.ts, by the
 * operation that met it; MCP's transport: transport-refusals.ts), a protocol's own error is never
 * taken for a library's, and an error not meant for the caller is answered as an internal error.
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
import { retryHeaders } from '../src/kernel/errors.js';
import { rpcRefusal } from '../src/mcp/transport-refusals.js';
import { ORDER_REFUSALS } from '../src/ucp/order/ucp-order-operations.js';
import { ucpRefusal } from '../src/ucp/refusals.js';
import { guard } from '../src/ucp/checkout/checkout-refusals.js';

const domainErrors: [GatewayError, number][] = [
  [new InvalidRequestError('bad', 'items'), 400],
  [new OutOfStockError('none left', 'items[0].quantity', 'SKU-1', 2, 0), 400],
  [new DiscountLimitReachedError(['SAVE10']), 400],
  [new UnsupportedApiVersionError('1999-01-01', ['2026-01-30']), 400],
  [new UnknownPaymentHandlerError('no such handler'), 400],
  [new AuthenticationError('who are you'), 401],
  [new AuthorizationError('not yours'), 403],
  [new PaymentDeclinedError('declined'), 402],
  [new AuthenticationRequiredError('3-D Secure', { kind: '3ds' } as never), 402],
  [new NotFoundError('no such session'), 404],
  [new InvalidStateError('completed'), 405],
  [new IdempotencyError('idempotency_conflict', 'another body'), 422],
  [new IdempotencyError('idempotency_in_flight', 'still running', 1), 409],
  [new RateLimitError('slow down', 30), 429],
  [new UpstreamError('no answer'), 502],
  [new ServiceUnavailableError('down'), 503],
];

describe('our errors', () => {
  it.each(domainErrors.map(([error, status]) => [error.name, error, status] as const))('%s suggests its status', (_name, error, status) => {
    expect(error).toBeInstanceOf(KnownError);
    expect(error.expose).toBe(true);
    expect(error.status).toBe(status);
  });

  it('says when to come back where it knows', () => {
    expect(retryHeaders(new RateLimitError('slow down', 30))).toEqual({ 'Retry-After': '30' });
    expect(retryHeaders(new IdempotencyError('idempotency_in_flight', 'still running', 1))).toEqual({ 'Retry-After': '1' });
    expect(retryHeaders(new NotFoundError('gone'))).toEqual({});
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

describe("UCP's factory words an error by the operation that met it", () => {
  it('at the edge: protocol statuses, a path named as the domain names it', () => {
    const unauthorized = ucpRefusal(new AuthenticationError('who are you'));
    expect([unauthorized.code, unauthorized.status, unauthorized.headers]).toEqual(['unauthorized', 401, { 'WWW-Authenticate': 'Bearer realm="ucp"' }]);
    expect(ucpRefusal(new RateLimitError('slow down', 30)).headers).toEqual({ 'Retry-After': '30' });
    expect(ucpRefusal(new InvalidStateError('completed'))).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect(ucpRefusal(new InvalidRequestError('bad', 'items'))).toMatchObject({ code: 'invalid_request', status: 400, detail: { path: 'items' } });
    expect(ucpRefusal(new ServiceUnavailableError('down')).headers).toEqual({ 'Retry-After': '5' });
  });

  it("in a checkout: the request's lines and UCP's paths", async () => {
    const refused = (error: Error) => guard(() => Promise.reject(error), [2, 0]).catch((e: unknown) => e as UcpError);
    expect(await refused(new NotFoundError('no such item', 'items[0]'))).toMatchObject({ code: 'item_unavailable', status: 200, detail: { resource: true, path: '$.line_items[2]' } });
    expect(await refused(new OutOfStockError('none left', 'items[1].quantity', 'SKU-1', 2, 0))).toMatchObject({ code: 'out_of_stock', status: 200, detail: { path: '$.line_items[0].quantity' } });
    expect(await refused(new InvalidStateError('completed'))).toMatchObject({ code: 'checkout_not_modifiable', status: 409, detail: { resource: true } });
    expect(await refused(new InvalidRequestError('too many', 'items[1].quantity'))).toMatchObject({ content: '$.line_items[0].quantity: too many', detail: { path: '$.line_items[0].quantity' } });
    const other = new Error('not ours');
    expect(await refused(other)).toBe(other);
  });

  it('for an order: its absence and nothing left to ship are outcomes about it', () => {
    expect(ucpRefusal(new NotFoundError('No order ord_1 for merchant m'), ORDER_REFUSALS)).toMatchObject({ code: 'not_found', content: 'Order not found.', detail: { resource: true } });
    expect(ucpRefusal(new InvalidStateError('all shipped'), ORDER_REFUSALS)).toMatchObject({ code: 'nothing_to_ship', status: 409 });
    expect(ucpRefusal(new InvalidRequestError('bad event'), ORDER_REFUSALS).detail.path).toBe('$.fulfillment.events');
  });
});

describe("MCP's transport refusals", () => {
  it('are JSON-RPC errors with the status and headers the error gives', () => {
    expect(rpcRefusal(new AuthenticationError('no key'))).toEqual({
      status: 401, code: -32000, message: 'Unauthorized', data: { code: 'authentication_error', message: 'no key' }, headers: { 'WWW-Authenticate': 'Bearer realm="mcp"' },
    });
    expect(rpcRefusal(new RateLimitError('slow down', 7))).toMatchObject({ status: 429, data: { retry_after: 7 }, headers: { 'Retry-After': '7' } });
    expect(rpcRefusal(new AuthorizationError('not yours'))).toMatchObject({ status: 403, message: 'Forbidden' });
  });
});
