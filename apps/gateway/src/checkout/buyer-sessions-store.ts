/**
 * A buyer's checkout sessions for customers' data-subject requests (the port customers/buyer-sessions.ts
 * defines): found, locked and cleared here, where the sessions are owned. Their orders are read with
 * them (checkout writes an order at completion; order ids and totals are all the export needs).
 * Erasure's statements run in its transaction.
 */
import { scrubProtocolState } from '../customers/personal-data-scrub.js';
import type { BuyerKey, BuyerOrder, BuyerSessions, BuyerTrail } from '../customers/buyer-sessions.js';
import type { Database } from '../db/database.js';
import { iso } from '../db/sql.js';
import { sql } from '../db/statement.js';
import type { Tx } from '../db/transaction.js';

/** A checkout session's customer of that email: as the orders list filters (orders/order-store.ts), trimmed too. */
const sessionOfEmail = (email: string) => sql`lower(btrim(s.customer->>'email')) = ${email}`;

/**
 * Every session of the buyer, whichever protocol it was made through: its customer's email, the
 * customer it was recorded as (by id), or the buyer as the protocol kept it — ACP's `buyer` and
 * fulfillment contact, UCP's `buyer` (checkout sessions and carts) — for sessions written before
 * those were the session's customer too.
 */
const sessionOfBuyer = ({ email, customerId }: BuyerKey) => sql`(${sessionOfEmail(email)}
  OR s.customer_id = ${customerId}::text
  OR lower(btrim(s.protocol_state #>> '{buyer,email}')) = ${email}
  OR lower(btrim(s.protocol_state #>> '{fulfillment_details,email}')) = ${email})`;

export class BuyerSessionsStore implements BuyerSessions {
  constructor(private readonly db: Pick<Database, 'sql'>) {}

  async trail(tx: Tx, merchantId: string, buyer: BuyerKey): Promise<BuyerTrail> {
    const sessions = await tx.query<{ id: string }>(sql`
      SELECT s.id FROM checkout_sessions AS s WHERE s.merchant_id = ${merchantId} AND ${sessionOfBuyer(buyer)} ORDER BY s.id FOR UPDATE`);
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

  async orders(merchantId: string, buyer: BuyerKey, tx?: Tx): Promise<BuyerOrder[]> {
    return (tx ?? this.db.sql).query<BuyerOrder>(sql`
      SELECT o.id, o.checkout_session_id, o.status::text AS status, o.currency, o.total::text AS total,
        ${iso(sql`o.created_at`)} AS created_at
      FROM orders AS o JOIN checkout_sessions AS s ON s.id = o.checkout_session_id
      WHERE o.merchant_id = ${merchantId} AND ${sessionOfBuyer(buyer)}
      ORDER BY o.created_at DESC, o.id DESC`);
  }
}
