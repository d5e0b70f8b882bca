/**
 * What other domains stored of a buyer beyond the checkout sessions (checkout's, behind the port
 * buyer-sessions.ts), for an erasure: the stored webhook events that hold the buyer's sessions or
 * orders, the idempotent answers that hold them, and the email on discount redemptions. Still the
 * one place outside their own stores that writes these tables (webhooks, idempotency and discounts
 * sit beside or above customers: each would take a port as checkout does), and only to take a
 * buyer's details out. Erasure's statements run in its transaction.
 */
import { sql } from '../db/statement.js';
import type { Tx } from '../db/transaction.js';
import { scrubPersonalData } from './personal-data-scrub.js';

export class BuyerRecordsStore {
  /**
   * Scrubs the stored events that carry any of these sessions or orders (their payload names the
   * id: a session's `id` or an order's `checkout_session_id`); pending deliveries send the scrubbed payload.
   */
  async scrubEvents(tx: Tx, merchantId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const events = await tx.query<{ id: string; payload: string }>(sql`
      SELECT e.id, e.payload::text AS payload FROM webhook_events AS e
      WHERE e.merchant_id = ${merchantId} AND EXISTS (SELECT 1 FROM unnest(${[...ids]}::text[]) AS x(id) WHERE strpos(e.payload::text, x.id) > 0)
      ORDER BY e.id FOR UPDATE`);
    for (const event of events) {
      const scrubbed = JSON.stringify(scrubPersonalData(JSON.parse(event.payload)));
      await tx.execute(sql`UPDATE webhook_events SET payload = ${scrubbed}::json WHERE id = ${event.id}`);
    }
    return events.length;
  }

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
