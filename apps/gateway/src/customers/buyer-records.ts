/**
 * What an erasure takes out beyond the checkout sessions and the webhook events (buyer-sessions.ts,
 * buyer-events.ts): the idempotent answers that hold the buyer's sessions or orders, and the email on
 * the buyer's discount redemptions. As a port, since each table has one owner: idempotency's store
 * (idempotency-store.ts) and discounts' (discount-store.ts, a domain customers may not import)
 * implement it; services.ts hands it in. Both run in the erasure's transaction.
 */
import type { Tx } from '../db/transaction.js';

export interface BuyerRecords {
  /** Deletes the merchant's stored idempotent answers (and their keys) whose path or answer holds any of these ids. */
  forgetAnswersHolding(tx: Tx, merchantId: string, ids: readonly string[]): Promise<number>;
  /** The email off the merchant's discount redemptions (the uses stay counted). */
  anonymizeRedemptions(tx: Tx, merchantId: string, email: string): Promise<number>;
}
