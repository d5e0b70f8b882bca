import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './feed-api-client.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-05-01T00:00:00Z');
  it.each([
    ['seconds', '3', 3000],
    ['zero seconds', '0', 0],
    ['an HTTP date 90 s ahead', 'Fri, 01 May 2026 00:01:30 GMT', 90_000],
    ['an HTTP date in the past', 'Thu, 30 Apr 2026 23:00:00 GMT', 0],
  ])('reads %s', (_, value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });

  it.each([null, '', 'soon', '-5'])('ignores %j', (value) => {
    expect(retryAfterMs(value, now)).toBeUndefined();
  });
});
