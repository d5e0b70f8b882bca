import type { RequestHandler } from 'express';
import { rateLimit as expressRateLimit, type Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { limitsOf } from '../../auth/tiers.js';
import { RateLimitError } from '../../errors.js';
import { metricsOf } from '../../ops/metrics.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

function secondsUntil(reset: Date | undefined, fallbackMs: number): number {
  const ms = reset ? reset.getTime() - Date.now() : fallbackMs;
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * Two windows per API key — a minute and a day — with the key's tier limits.
 * Every authenticated response carries X-RateLimit-Limit/-Remaining/-Reset of
 * the minute window (Reset in Unix seconds); past a limit, 429 with Retry-After.
 * Runs after authenticate(), before authorize(): refusals for scope or merchant count too.
 *
 *   app.use(rateLimit({ minute: new MemoryStore(), day: new MemoryStore() }, logger));
 */
export function rateLimit(stores: { minute: Store; day: Store }, logger: Logger): RequestHandler[] {
  // While the store is down every request fails over to "let through": say so once a minute, not per request.
  let lastStoreWarning = 0;
  const storeFailed = (error: unknown) => {
    if (Date.now() - lastStoreWarning < 60_000) return;
    lastStoreWarning = Date.now();
    logger.warn({ err: error }, 'rate-limit store failed; requests are let through until it is back');
  };
  const common = {
    keyGenerator: (req: { ctx: { principal?: { keyId: string } } }) => req.ctx.principal!.keyId,
    standardHeaders: false,
    legacyHeaders: false,
    passOnStoreError: true,
    validate: false,
    logger: {
      warn: (message: unknown) => logger.warn({ detail: message }, 'rate limiter'),
      error: storeFailed,
    },
  } as const;

  const perMinute = expressRateLimit({
    ...common,
    windowMs: MINUTE,
    store: stores.minute,
    requestPropertyName: 'rateLimitMinute',
    limit: (req) => limitsOf(req.ctx.principal!).perMinute,
    handler: (req, _res, next) => {
      const info = req.rateLimitMinute;
      const retryAfter = secondsUntil(info?.resetTime, MINUTE);
      metricsOf(req)?.rateLimitRefusals.inc({ window: 'minute' });
      next(new RateLimitError(`Rate limit of ${info?.limit} requests per minute exceeded; retry after ${retryAfter} s`, retryAfter));
    },
  });

  const headers: RequestHandler = (req, res, next) => {
    const info = req.rateLimitMinute;
    if (info) {
      res.setHeader('X-RateLimit-Limit', String(info.limit));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, info.limit - info.used)));
      res.setHeader('X-RateLimit-Reset', String(Math.ceil((info.resetTime?.getTime() ?? Date.now() + MINUTE) / 1000)));
    }
    next();
  };

  const perDay = expressRateLimit({
    ...common,
    windowMs: DAY,
    store: stores.day,
    requestPropertyName: 'rateLimitDay',
    limit: (req) => limitsOf(req.ctx.principal!).perDay,
    handler: (req, _res, next) => {
      const info = req.rateLimitDay;
      const retryAfter = secondsUntil(info?.resetTime, DAY);
      metricsOf(req)?.rateLimitRefusals.inc({ window: 'day' });
      next(new RateLimitError(`Daily limit of ${info?.limit} requests exceeded; retry after ${retryAfter} s`, retryAfter));
    },
  });

  return [withMinuteHeaders(perMinute, headers), perDay];
}

/** Sets the minute window's headers whether or not the minute limiter refused. */
function withMinuteHeaders(limiter: RequestHandler, headers: RequestHandler): RequestHandler {
  return (req, res, next) => {
    limiter(req, res, (error?: unknown) => headers(req, res, () => next(error)));
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      rateLimitMinute?: { limit: number; used: number; remaining: number; resetTime: Date | undefined };
      rateLimitDay?: { limit: number; used: number; remaining: number; resetTime: Date | undefined };
    }
  }
}
