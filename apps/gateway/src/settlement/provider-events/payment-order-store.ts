/**
 * Finds the order a PSP's event is about: by the metadata the gateway put on the payment
 * (merchant and session), or by the PSP's payment reference (charges and disputes carry no
 * metadata) — the session's current payment, or one a payment operation of it recorded. Read in
 * the event's transaction; the order is then locked through OrderStore.
 *
 * A read across the owners of four tables (checkout's sessions, orders, merchants' Stripe account,
 * payments' operations) in one statement, on purpose: which order a PSP event is about is one
 * question, asked in the event's transaction. Nothing here writes them.
 */
import { sql } from '../../db/statement.js';
import type { Tx } from '../../db/transaction.js';

export interface PaymentOrder {
  orderId: string;
  merchantId: string;
  sessionId: string;
  /** The merchant's Stripe connected account (merchants.stripe_account_id); null: none set. */
  stripeAccountId: string | null;
  /** The event's payment reference is this session's payment (or it named none). */
  referenceKnown: boolean;
}

type Row = { order_id: string; merchant_id: string; session_id: string; stripe_account_id: string | null; reference_known: boolean };

const COLUMNS = (reference: string | null) => sql`
  o.id AS order_id, s.merchant_id, s.id AS session_id, m.stripe_account_id,
  (${reference}::text IS NULL OR s.payment_reference = ${reference}::text
    OR EXISTS (SELECT 1 FROM payment_operations AS p WHERE p.session_id = s.id AND p.reference = ${reference}::text)) AS reference_known`;
const FROM = sql`checkout_sessions AS s JOIN orders AS o ON o.checkout_session_id = s.id JOIN merchants AS m ON m.id = s.merchant_id`;

const decode = (row: Row): PaymentOrder => ({
  orderId: row.order_id,
  merchantId: row.merchant_id,
  sessionId: row.session_id,
  stripeAccountId: row.stripe_account_id,
  referenceKnown: row.reference_known,
});

export class PaymentOrderStore {
  /** The order of the merchant's session (the payment's metadata), or null when the session has no order. */
  async bySession(tx: Tx, merchantId: string, sessionId: string, reference: string | null): Promise<PaymentOrder | null> {
    const [row] = await tx.query<Row>(sql`SELECT ${COLUMNS(reference)} FROM ${FROM} WHERE s.id = ${sessionId} AND s.merchant_id = ${merchantId}`);
    return row ? decode(row) : null;
  }

  /**
   * The orders whose payment is `reference` (at most two read: more than one is a conflict the
   * caller refuses to guess about).
   */
  async byReference(tx: Tx, reference: string): Promise<PaymentOrder[]> {
    const rows = await tx.query<Row>(sql`
      SELECT ${COLUMNS(reference)} FROM ${FROM}
      WHERE s.payment_reference = ${reference}
         OR s.id IN (SELECT p.session_id FROM payment_operations AS p WHERE p.reference = ${reference})
      LIMIT 2`);
    return rows.map(decode);
  }
}
