/**
 * When a delivery is attempted: a schedule like Svix's — immediately, then
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after the previous attempt —
 * eight attempts in all, each delay spread by ±10 % jitter so that endpoints
 * recovering from an outage are not hit by every retry at once.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before each attempt, from the previous one (the first from the event). */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

export const DEFAULT_JITTER = 0.1;

/**
 * Milliseconds to wait before the next attempt, after `attemptsMade` attempts failed; null when the
 * schedule is used up and the delivery is given up. `random` returns [0, 1), like Math.random.
 */
export function nextRetryDelay(
  attemptsMade: number,
  schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE,
  random: () => number = Math.random,
  jitter = DEFAULT_JITTER,
): number | null {
  const base = schedule[attemptsMade];
  if (base === undefined) return null;
  return Math.max(0, Math.round(base * (1 + jitter * (2 * random() - 1))));
}
