/**
 * A budget of failed authentications per client address: past `limit` failures within
 * `windowMs`, that address's failed authentications are answered 429 instead of 401 — and,
 * while keys are read from the database, refused before the read (see authenticate()). The counters
 * live in the same store as the key limits: in this process, or in Redis (`REDIS_URL`) so
 * that every replica shares them. While the store is down the limiter fails open, as the key
 * limits do.
 *
 *   const failures = new AuthFailureLimiter(new MemoryStore(), { limit: 30, windowMs: 60_000 }, logger);
 *   const wait = await failures.retryAfter(req.ip); // seconds, or undefined when not blocked
 */
import type { Options, Store } from 'express-rate-limit';
import type { Logger } from 'pino';

export interface AuthFailureLimits {
  /** Failed authentications allowed per address and window; 0 turns the limiter off. */
  limit: number;
  windowMs: number;
}

export class AuthFailureLimiter {
  private lastWarning = 0;

  constructor(
    private readonly store: Store,
    readonly limits: AuthFailureLimits,
    private readonly logger?: Logger,
  ) {
    void Promise.resolve(store.init?.({ windowMs: limits.windowMs } as Options)).catch((error: unknown) => this.storeFailed(error));
  }

  /** Seconds until the address may try again, when it has used up its failures; else undefined. */
  async retryAfter(client: string): Promise<number | undefined> {
    if (this.limits.limit <= 0 || !this.store.get) return undefined;
    try {
      const info = await this.store.get(client);
      if (!info || info.totalHits < this.limits.limit) return undefined;
      return this.secondsLeft(info.resetTime);
    } catch (error) {
      this.storeFailed(error);
      return undefined;
    }
  }

  /** Counts one failed authentication of the address; the seconds until it may try again when this one was past its budget. */
  async failed(client: string): Promise<number | undefined> {
    if (this.limits.limit <= 0) return undefined;
    try {
      const info = await this.store.increment(client);
      return info.totalHits > this.limits.limit ? this.secondsLeft(info.resetTime) : undefined;
    } catch (error) {
      this.storeFailed(error);
      return undefined;
    }
  }

  private secondsLeft(resetTime: Date | undefined): number | undefined {
    const ms = resetTime ? resetTime.getTime() - Date.now() : this.limits.windowMs;
    return ms > 0 ? Math.ceil(ms / 1000) : undefined;
  }

  private storeFailed(error: unknown): void {
    if (Date.now() - this.lastWarning < 60_000) return;
    this.lastWarning = Date.now();
    this.logger?.warn({ err: error }, 'auth-failure limit store failed; requests are let through until it is back');
  }
}
