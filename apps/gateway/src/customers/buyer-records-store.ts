/**
 * What other domains stored of a buyer beyond the checkout sessions and the webhook events (theirs,
 * behind the ports buyer-sessions.ts and buyer-events.ts), for an erasure: the idempotent answers
 * that hold the buyer's sessions or orders, and the email on discount redemptions. Still the one
 * place outside their own stores that writes these two tables (idempotency's and discounts', whose
 * stores would take these statements), and only to take a buyer's details out. Erasure's
 * statements run in its transaction.
 */
import { sql } from '../db/statement.js';
import type { Tx } from '../db/transaction.js';

export class BuyerRecordsStore {
  /** Deletes the merchant's stored idempotent answers (and their keys) whose path or answer holds any of these ids. */
  async forgetIdempotentAnswers(tx: Tx, merchantId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return tx.execute(sql`
      DELETE FROM idempotency_records AS r
      WHERE r.merchant_id = ${merchantId} AND EXISTS (SELECT 1 FROM unnest(${[...ids]}::text[]) AS x(id)
        WHERE strpos(r.params, x.id) > 0 OR strpos(COALESCE(r.response_body::text, ''), x.id) > 0)`);
  }

  /** The email off the merchant's discount redemptions (the uses stay counted). */
  async anonymizeRedemptions(tx: Tx, merchantId: string, email: string): Promise<number> {
    return tx.execute(sql`UPDATE discount_redemptions SET email = NULL WHERE merchant_id = ${merchantId} AND email = ${email}`);
  }
}
