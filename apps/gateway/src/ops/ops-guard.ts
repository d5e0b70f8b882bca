/**
 * What keeps the keyless operations endpoints cheap to expose: a budget of requests per client
 * address for `/readyz` and `/metrics` (OPS_RATE_LIMIT a minute, default 300; monitors send a few),
 * and, when METRICS_TOKEN is set, `Authorization: Bearer <token>` on `/metrics` (compared in
 * constant time). Refusals are the contract's error bodies (401, 429 with Retry-After).
 *
 *   router.get('/metrics', opsGuard({ perMinute: 300, token: process.env.METRICS_TOKEN }), scrape);
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { MemoryStore, type Options } from 'express-rate-limit';
import { AuthenticationError, RateLimitError } from '../kernel/errors.js';

const WINDOW_MS = 60_000;

export interface OpsGuardOptions {
  /** Requests per client address and minute (0: no limit). */
  perMinute: number;
  /** When set, the bearer token the request must carry. */
  token?: string | undefined;
}

const digest = (text: string) => hash('sha256', text, 'buffer');

function bearer(req: Request): string | undefined {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return match?.[1];
}

/** One budget per address, shared by every endpoint guarded by the same `budget()`. */
export function addressBudget(perMinute: number): (client: string) => Promise<number | undefined> {
  if (perMinute <= 0) return () => Promise.resolve(undefined);
  const store = new MemoryStore();
  store.init({ windowMs: WINDOW_MS } as Options);
  return async (client) => {
    const { totalHits, resetTime } = await store.increment(client);
    if (totalHits <= perMinute) return undefined;
    return Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
  };
}

/** Refuses a request past its address's budget (429), or without the token when one is set (401). */
export function opsGuard(budget: (client: string) => Promise<number | undefined>, token?: string): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return async (req, _res, next) => {
    const wait = await budget(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (wait !== undefined) throw new RateLimitError(`Too many requests to ${req.path} from this address; retry after ${wait} s`, wait);
    if (expected) {
      const presented = bearer(req);
      if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
        throw new AuthenticationError(`${req.path} needs Authorization: Bearer <METRICS_TOKEN>`);
      }
    }
    next();
  };
}
