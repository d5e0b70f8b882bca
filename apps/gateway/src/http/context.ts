import type { Principal } from '../auth/principal.js';
import type { Operation } from '../contract/operations.js';
import type { BeforeCommit } from '../db/transaction.js';
import type { ProtocolProfile } from './edge.js';

/**
 * The request's Idempotency-Key, while its operation runs. A service that makes
 * a business change stores the response in the same transaction:
 *
 *   await checkout.create(merchantId, body, req.ctx.idempotency?.storeWith(201, (s) => ({ checkout_session: s })));
 *
 * Responses not stored that way are stored by the idempotency middleware itself.
 */
export interface IdempotencyHandle {
  storeWith<T>(status: number, body: (result: T) => unknown): BeforeCommit<T>;
}

/** What the edge learns about a request, for everything after it. */
export interface RequestContext {
  requestId: string;
  /** The protocol profile serving the request, once one claimed its path. */
  profile?: ProtocolProfile;
  operation?: Operation;
  /** The operation's path parameters, decoded (e.g. `{ session_id: 'cs_…' }`). */
  pathParams?: Record<string, string>;
  /** The query parameters, read once; after validation as the contract reads them (numbers coerced, defaults filled). */
  query?: Record<string, unknown>;
  principal?: Principal;
  /** The merchant this request acts for. */
  merchantId?: string;
  apiVersion?: string;
  /** The caller's preferred locale (Accept-Language), when it named a usable one. */
  locale?: string;
  /** The body's bytes exactly as received (for request signatures and idempotency). */
  rawBody?: Buffer;
  /** Set when the request carries an Idempotency-Key (POST and PATCH). */
  idempotency?: IdempotencyHandle;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}

/** The merchant of an authenticated request (set by authorize()). */
export function merchantOf(ctx: RequestContext): string {
  if (!ctx.merchantId) throw new Error('merchantOf() used on a route without authorize()');
  return ctx.merchantId;
}
