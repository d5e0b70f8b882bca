/**
 * What other domains stored of a buyer, for a data-subject request: the merchant's checkout
 * sessions whose customer has the email and their orders (read for an export), their stored
 * webhook events, the idempotent answers that hold those sessions or orders, and the email on
 * discount redemptions (taken out for an erasure). The one place outside their own stores that
 * writes these tables, and only to take a buyer's details out: orders keep their totals, lines and
 * statuses. Erasure's statements run in its transaction.
 */
import type { Database } from '../db/database.js';
import { iso } from '../db/sql.js';
import { sql } from '../db/statement.js';
import type { Tx } from '../db/transaction.js';
import { scrubPersonalData, scrubProtocolState } from './personal-data-scrub.js';

/** The sessions (locked) and orders of the buyer of that email (normalized). */
export interface BuyerTrail {
  sessionIds: string[];
  orderIds: string[];
}

/** A checkout session's customer of that email: as the orders list filters (orders/order-store.ts), trimmed too. */
const sessionOfEmail = (email: string) => sql`lower(btrim(s.customer->>'email')) = ${email}`;

/**
 * Every session of the buyer, whichever protocol it was made through: its customer's email, the
 * customer it was recorded as (by id), or the buyer as the protocol kept it — ACP's `buyer` and
 * fulfillment contact, UCP's `buyer` (checkout sessions and carts) — for sessions written before
 * those were the session's customer too.
 */
const sessionOfBuyer = (merchantId: string, email: string) => sql`(${sessionOfEmail(email)}
  OR s.customer_id IN (SELECT c.id FROM customers AS c WHERE c.merchant_id = ${merchantId} AND c.email = ${email})
  OR lower(btrim(s.protocol_state #>> '{buyer,email}')) = ${email}
  OR lower(btrim(s.protocol_state #>> '{fulfillment_details,email}')) = ${email})`;

export interface BuyerOrder {
  id: string;
  checkout_session_id: string;
  status: string;
  currency: string;
  /** Minor units, as text. */
  total: string;
  created_at: string;
}

export class BuyerRecordsStore {
  constructor(private readonly db: Pick<Database, 'sql'>) {}

  /** Locks the merchant's sessions of the buyer and finds their orders. */
  async trail(tx: Tx, merchantId: string, email: string): Promise<BuyerTrail> {
    const sessions = await tx.query<{ id: string }>(sql`
      SELECT s.id FROM checkout_sessions AS s WHERE s.merchant_id = ${merchantId} AND ${sessionOfBuyer(merchantId, email)} ORDER BY s.id FOR UPDATE`);
    const sessionIds = sessions.map((row) => row.id);
    if (sessionIds.length === 0) return { sessionIds, orderIds: [] };
    const orders = await tx.query<{ id: string }>(sql`
      SELECT o.id FROM orders AS o WHERE o.merchant_id = ${merchantId} AND o.checkout_session_id = ANY(${sessionIds}::text[]) ORDER BY o.id`);
    return { sessionIds, orderIds: orders.map((row) => row.id) };
  }

  /**
   * Takes the buyer's details out of the sessions; their lines, totals, status and order stay, and
   * so does the protocol's state without the buyer (scrubProtocolState: the session is still the
   * agent's, shown in its protocol).
   */
  async clearSessions(tx: Tx, merchantId: string, sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    const states = await tx.query<{ id: string; state: string | null }>(sql`
      SELECT id, protocol_state::text AS state FROM checkout_sessions WHERE merchant_id = ${merchantId} AND id = ANY(${[...sessionIds]}::text[]) ORDER BY id`);
    for (const { id, state } of states) {
      const scrubbed = state === null ? null : JSON.stringify(scrubProtocolState(JSON.parse(state)));
      await tx.execute(sql`
        UPDATE checkout_sessions SET customer = NULL, shipping_address = NULL, protocol_state = ${scrubbed}::json,
          customer_id = NULL, shipping_address_id = NULL, saved_addresses = NULL
        WHERE merchant_id = ${merchantId} AND id = ${id}`);
    }
    return states.length;
  }

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

  /** The merchant's orders of the buyer of that email, newest first (amounts in minor units, as text). */
  async orders(merchantId: string, email: string, tx?: Tx): Promise<BuyerOrder[]> {
    return (tx ?? this.db.sql).query<BuyerOrder>(sql`
      SELECT o.id, o.checkout_session_id, o.status::text AS status, o.currency, o.total::text AS total,
        ${iso(sql`o.created_at`)} AS created_at
      FROM orders AS o JOIN checkout_sessions AS s ON s.id = o.checkout_session_id
      WHERE o.merchant_id = ${merchantId} AND ${sessionOfBuyer(merchantId, email)}
      ORDER BY o.created_at DESC, o.id DESC`);
  }
}
