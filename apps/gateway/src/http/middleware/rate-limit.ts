import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { limitsOf } from '../../auth/tiers.js';
import { RateLimitError } from '../../kernel/errors.js';
import { metricsOf } from '../metrics.js';
import type { KeyWindows } from '../../rate-limit/key-windows.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Stores given their window (`init`) once, whichever limiter (our edge, the ACP profile's) meets them first. */
const initialized = new WeakSet<Store>();

interface Window {
  name: 'minute' | 'day';
  ms: number;
  store: Store;
}

/**
 * Two windows per API key — a minute and a day — with the key's tier limits, counted in
 * express-rate-limit's Store port (in this process, or Redis shared by every replica).
 * Every authenticated response carries X-RateLimit-Limit/-Remaining/-Reset of the minute
 * window (Reset in Unix seconds); past a limit, 429 with Retry-After. A request the minute
 * window refuses is not counted in the day's. While a store fails, requests pass (logged once
 * a minute). Runs after authenticate(), before authorize(): refusals for scope or merchant
 * count too. (Its own code rather than the express-rate-limit middleware: a fifth of the edge's
 * CPU in bench/http went to that middleware's per-request bookkeeping.) With `keyWindows` (Redis),
 * both windows are counted in one round trip (rate-limit/key-windows.ts).
 *
 *   app.use(rateLimit({ minute: new MemoryStore(), day: new MemoryStore() }, logger));
 */
export function rateLimit(stores: { minute: Store; day: Store; keyWindows?: KeyWindows | undefined }, logger: Logger): RequestHandler {
  let lastStoreWarning = 0;
  const storeFailed = (error: unknown) => {
    if (Date.now() - lastStoreWarning < 60_000) return;
    lastStoreWarning = Date.now();
    logger.warn({ err: error }, 'rate-limit store failed; requests are let through until it is back');
  };
  const minute: Window = { name: 'minute', ms: MINUTE, store: stores.minute };
  const day: Window = { name: 'day', ms: DAY, store: stores.day };
  for (const { store, ms } of [minute, day]) {
    if (initialized.has(store)) continue;
    initialized.add(store);
    void Promise.resolve(store.init?.({ windowMs: ms } as Options)).catch(storeFailed);
  }
  /** The window's count after this request, or undefined when its store failed. */
  const count = async ({ store }: Window, key: string) => {
    try {
      return await store.increment(key);
    } catch (error) {
      storeFailed(error);
      return undefined;
    }
  };

  /** The key's counts after this request; the day's is not counted (undefined) when the minute's refuses it. */
  const counts = async (key: string, minuteLimit: number): Promise<{ perMinute?: ClientRateLimitInfo | undefined; perDay?: ClientRateLimitInfo | undefined }> => {
    if (stores.keyWindows) {
      try {
        const { minute: perMinute, day: perDay } = await stores.keyWindows.count(key, minuteLimit);
        return { perMinute, perDay };
      } catch (error) {
        storeFailed(error);
        return {};
      }
    }
    const perMinute = await count(minute, key);
    if (perMinute && perMinute.totalHits > minuteLimit) return { perMinute };
    return { perMinute, perDay: await count(day, key) };
  };

  return async (req, res, next) => {
    const principal = req.ctx.principal!;
    const limits = limitsOf(principal);
    const { perMinute, perDay } = await counts(principal.keyId, limits.perMinute);
    if (perMinute) {
      const reset = perMinute.resetTime?.getTime() ?? Date.now() + MINUTE;
      res.setHeader('X-RateLimit-Limit', String(limits.perMinute));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limits.perMinute - perMinute.totalHits)));
      res.setHeader('X-RateLimit-Reset', String(Math.ceil(reset / 1000)));
      if (perMinute.totalHits > limits.perMinute) {
        const retryAfter = secondsUntil(reset);
        metricsOf(req)?.rateLimitRefusals.inc({ window: 'minute' });
        throw new RateLimitError(`Rate limit of ${limits.perMinute} requests per minute exceeded; retry after ${retryAfter} s`, retryAfter);
      }
    }
    if (perDay && perDay.totalHits > limits.perDay) {
      const retryAfter = secondsUntil(perDay.resetTime?.getTime() ?? Date.now() + DAY);
      metricsOf(req)?.rateLimitRefusals.inc({ window: 'day' });
      throw new RateLimitError(`Daily limit of ${limits.perDay} requests exceeded; retry after ${retryAfter} s`, retryAfter);
    }
    next();
  };
}

function secondsUntil(resetMs: number): number {
  return Math.max(1, Math.ceil((resetMs - Date.now()) / 1000));
}
