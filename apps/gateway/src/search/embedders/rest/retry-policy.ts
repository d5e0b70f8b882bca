/**
 * When an embeddings endpoint may be asked again: after a 429 or a 5xx answer, or no answer at
 * all, with exponential backoff and full jitter — or exactly what the endpoint's `Retry-After`
 * asks (seconds or an HTTP date), when it says, up to `maxDelayMs`. Other 4xx answers are the
 * request's fault and are never retried.
 *
 *   const policy = new RetryPolicy({ retries: 4 });
 *   const wait = policy.delayFor(attempt, response.status, response.headers.get('retry-after'));
 */
export interface RetryPolicyOptions {
  /** Further attempts after the first (default 4). */
  retries?: number;
  /** The first backoff (default 500 ms), doubled each attempt. */
  minDelayMs?: number;
  /** No single wait is longer (default 30 s); a longer Retry-After is cut to it. */
  maxDelayMs?: number;
  random?: () => number;
  now?: () => number;
}

export class RetryPolicy {
  readonly retries: number;
  private readonly minDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor({ retries = 4, minDelayMs = 500, maxDelayMs = 30_000, random = Math.random, now = Date.now }: RetryPolicyOptions = {}) {
    this.retries = retries;
    this.minDelayMs = minDelayMs;
    this.maxDelayMs = maxDelayMs;
    this.random = random;
    this.now = now;
  }

  /** Whether an answer with this status (undefined: none came) is worth another attempt. */
  retryable(status: number | undefined): boolean {
    return status === undefined || status === 429 || status >= 500;
  }

  /**
   * How long to wait before attempt `attempt + 1` (attempt counts from 0), or undefined when
   * there is no further attempt to make.
   */
  delayFor(attempt: number, status: number | undefined, retryAfter: string | null | undefined): number | undefined {
    if (attempt >= this.retries || !this.retryable(status)) return undefined;
    const asked = parseRetryAfter(retryAfter, this.now());
    if (asked !== undefined) return Math.min(asked, this.maxDelayMs);
    const ceiling = Math.min(this.maxDelayMs, this.minDelayMs * 2 ** attempt);
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
