/**
 * What customers needs of webhooks for an erasure, as a port: the stored webhook events are the
 * webhooks domain's (webhooks/webhook-store.ts implements it; services.ts hands it in), and what
 * a buyer's details are is customers' to say (personal-data-scrub.ts), handed to it as `scrub`.
 */
import type { Tx } from '../db/transaction.js';

export interface BuyerEvents {
  /**
   * Rewrites with `scrub` the merchant's stored events whose payload names any of `ids` (a
   * session's or an order's id), locked in the caller's transaction; how many.
   */
  scrubEvents(tx: Tx, merchantId: string, ids: readonly string[], scrub: (payload: unknown) => unknown): Promise<number>;
}
