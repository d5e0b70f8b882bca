/**
 * Tries work again and again until it is no longer needed: after each failure it waits the
 * schedule's next delay (the last repeats), ±20 % jitter, so that processes retrying together do
 * not come back in step.
 *
 *   await retryUntil(() => !healthy, () => reload(), (error, attempt, ms) => log(error, attempt, ms));
 */
const DEFAULT_SCHEDULE_MS = [100, 250, 500, 1_000, 2_000] as const;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export async function retryUntil(
  /** Whether another attempt is wanted (checked before each). */
  wanted: () => boolean,
  attempt: (attempt: number) => Promise<void>,
  /** Told of each failure, with the attempt (from 0) and the wait before the next. */
  failed: (error: unknown, attempt: number, waitMs: number) => void,
  scheduleMs: readonly number[] = DEFAULT_SCHEDULE_MS,
): Promise<void> {
  for (let n = 0; wanted(); n++) {
    try {
      await attempt(n);
    } catch (error) {
      const waitMs = Math.round(scheduleMs[Math.min(n, scheduleMs.length - 1)]! * (0.8 + Math.random() * 0.4));
      failed(error, n, waitMs);
      await sleep(waitMs);
    }
  }
}
