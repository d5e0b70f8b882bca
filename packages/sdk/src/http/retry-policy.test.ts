import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../errors/error-from-response.js';
import { ConnectionError } from '../errors/errors.js';
import { isRetryable, retryDelayMs } from './retry-policy.js';

const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}) => errorFromResponse(status, body, new Headers(headers));

describe('isRetryable', () => {
  it.each([
    [answer(409, { detail: 'running', code: 'idempotency_in_flight' }), true],
    [answer(429), true],
    [answer(500), true],
    [answer(502), true],
    [answer(503), true],
    [new ConnectionError('reset', { code: 'connection_error' }), true],
    [new ConnectionError('slow', { code: 'timeout' }), true],
    [answer(400), false],
    [answer(401), false],
    [answer(403), false],
    [answer(404), false],
    [answer(405), false],
    [answer(413), false],
    [answer(422, { detail: 'other body', code: 'idempotency_conflict' }), false],
  ])('%s → %s', (error, retryable) => {
    expect(isRetryable(error)).toBe(retryable);
  });
});

describe('retryDelayMs', () => {
  const policy = { initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

  it('backs off exponentially, half fixed and half random, up to the ceiling', () => {
    const error = answer(503);
    expect([0, 1, 2, 3, 4, 5].map((retry) => retryDelayMs(error, retry, policy, () => 0))).toEqual([250, 500, 1000, 2000, 4000, 4000]);
    expect([0, 1, 2, 3, 4, 5].map((retry) => retryDelayMs(error, retry, policy, () => 1))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it("waits at least the body's retry_after", () => {
    expect(retryDelayMs(answer(429, { error: { type: 'rate_limit_exceeded', message: 'x', retry_after: 3 } }, { 'Retry-After': '1' }), 0, policy, () => 0)).toBe(3000);
  });

  it('waits at least Retry-After, in seconds or as an HTTP date', () => {
    expect(retryDelayMs(answer(409, { code: 'idempotency_in_flight', detail: 'x' }, { 'Retry-After': '1' }), 0, policy, () => 0)).toBe(1000);
    const inTwoSeconds = new Date(Date.now() + 2_000).toUTCString();
    expect(retryDelayMs(answer(503, {}, { 'Retry-After': inTwoSeconds }), 0, policy, () => 0)).toBeGreaterThan(900);
  });

  it('keeps backing off when the backoff is longer than Retry-After', () => {
    expect(retryDelayMs(answer(409, { code: 'idempotency_in_flight', detail: 'x' }, { 'Retry-After': '1' }), 3, policy, () => 0)).toBe(2000);
  });

  it('gives up when the server asks for a longer wait than maxRetryAfterMs', () => {
    expect(retryDelayMs(answer(429, { error: { type: 'rate_limit_exceeded', message: 'day', retry_after: 3600 } }), 0, policy)).toBeUndefined();
    expect(retryDelayMs(answer(429, { error: { type: 'rate_limit_exceeded', message: 'minute', retry_after: 60 } }), 0, policy)).toBe(60_000);
  });
});
