import { describe, expect, it } from 'vitest';
import { parseRetryAfter, RetryPolicy } from './retry-policy.js';

describe('RetryPolicy', () => {
  const policy = new RetryPolicy({ retries: 3, minDelayMs: 100, maxDelayMs: 1_000, random: () => 1, now: () => 0 });

  it.each([
    ['no answer', undefined, true],
    ['429', 429, true],
    ['500', 500, true],
    ['503', 503, true],
    ['400', 400, false],
    ['401', 401, false],
  ] as const)('retries %s: %s', (_name, status, expected) => {
    expect(policy.retryable(status)).toBe(expected);
  });

  it('doubles its backoff up to the cap, and stops after its retries', () => {
    expect([0, 1, 2].map((attempt) => policy.delayFor(attempt, 503, null))).toEqual([100, 200, 400]);
    expect(policy.delayFor(3, 503, null)).toBeUndefined();
    expect(new RetryPolicy({ retries: 9, minDelayMs: 100, maxDelayMs: 1_000, random: () => 1 }).delayFor(8, 503, null)).toBe(1_000);
  });

  it('waits what Retry-After asks, up to the cap', () => {
    expect(policy.delayFor(0, 429, '0')).toBe(0);
    expect(policy.delayFor(0, 429, '1')).toBe(1_000);
    expect(policy.delayFor(0, 429, '3600')).toBe(1_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('2', 0)).toBe(2_000);
    expect(parseRetryAfter(new Date(5_000).toUTCString(), 0)).toBe(5_000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
