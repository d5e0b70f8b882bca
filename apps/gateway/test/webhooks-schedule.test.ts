/** The retry schedule and secret rotation, as plain functions. */
import { describe, expect, it } from 'vitest';
import { rotatedSecrets, signingSecrets } from '../src/webhooks/endpoint-secrets.js';
import { DEFAULT_RETRY_SCHEDULE, nextRetryDelay } from '../src/webhooks/retry-schedule.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe('nextRetryDelay', () => {
  it('follows the Svix-like schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt, then gives up', () => {
    const middle = () => 0.5; // no jitter
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect([1, 2, 3, 4, 5, 6, 7].map((made) => nextRetryDelay(made, DEFAULT_RETRY_SCHEDULE, middle))).toEqual([5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(nextRetryDelay(8, DEFAULT_RETRY_SCHEDULE, middle)).toBeNull();
  });

  it('spreads each delay by at most ±10 % jitter', () => {
    expect(nextRetryDelay(2, DEFAULT_RETRY_SCHEDULE, () => 0)).toBe(4.5 * M);
    expect(nextRetryDelay(2, DEFAULT_RETRY_SCHEDULE, () => 0.999999)).toBeCloseTo(5.5 * M, -2);
    const samples = Array.from({ length: 200 }, () => nextRetryDelay(4, DEFAULT_RETRY_SCHEDULE)!);
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(1.8 * H);
    expect(Math.max(...samples)).toBeLessThanOrEqual(2.2 * H);
    expect(new Set(samples).size).toBeGreaterThan(1);
  });

  it('takes an injected schedule', () => {
    expect(nextRetryDelay(1, [0, 100], () => 0.5)).toBe(100);
    expect(nextRetryDelay(2, [0, 100], () => 0.5)).toBeNull();
  });
});

describe('endpoint secrets', () => {
  const now = new Date('2026-11-02T12:00:00Z');
  const current = { secret: 'whsec_old', previousSecret: null, previousSecretExpiresAt: null };

  it('rotates to a new secret and keeps the old one for the overlap, newest first', () => {
    const rotated = rotatedSecrets(current, 24 * H, now);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated).toMatchObject({ previousSecret: 'whsec_old', previousSecretExpiresAt: new Date('2026-11-03T12:00:00Z') });
    expect(signingSecrets(rotated, now)).toEqual([rotated.secret, 'whsec_old']);
    expect(signingSecrets(rotated, new Date('2026-11-03T12:00:00Z'))).toEqual([rotated.secret]);
  });

  it('retires the old secret at once with a zero overlap', () => {
    const rotated = rotatedSecrets(current, 0, now);
    expect(rotated).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
    expect(signingSecrets(rotated, now)).toEqual([rotated.secret]);
  });

  it('refuses a negative overlap', () => {
    expect(() => rotatedSecrets(current, -1, now)).toThrow(RangeError);
  });
});
