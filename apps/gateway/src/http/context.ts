import type { Principal } from '../auth/key-service.js';
import type { Operation } from '../contract/operations.js';

/** What the edge learns about a request, for everything after it. */
export interface RequestContext {
  requestId: string;
  operation?: Operation;
  principal?: Principal;
  /** The merchant this request acts for. */
  merchantId?: string;
  apiVersion?: string;
  /** The body's bytes exactly as received (for request signatures and idempotency). */
  rawBody?: Buffer;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}

/** The merchant of an authenticated request (set by requireAuth). */
export function merchantOf(ctx: RequestContext): string {
  if (!ctx.merchantId) throw new Error('merchantOf() used on a route without requireAuth()');
  return ctx.merchantId;
}
