/** Orders after checkout: the only code that changes them once written (checkout-store.ts writes them). */
import type { OrderStatus, Session } from '../checkout/session.js';
import { decodeWholeSession, WHOLE_SESSION, type WholeSessionRow } from '../checkout/session-rows.js';
import type { Tx } from '../db/transaction.js';
import { sql } from '../db/statement.js';

export type { OrderStatus };

export class OrderStore {
  /** Moves the order to `to` only from one of `from` (a compare-and-set); false when it was not there. */
  async changeStatus(tx: Tx, merchantId: string, orderId: string, from: readonly OrderStatus[], to: OrderStatus): Promise<boolean> {
    const count = await tx.execute(sql`
      UPDATE orders SET status = ${to}::"OrderStatus"
      WHERE id = ${orderId} AND merchant_id = ${merchantId} AND status::text = ANY(${[...from]}::text[])`);
    return count === 1;
  }

  async currentStatus(tx: Tx, merchantId: string, orderId: string): Promise<OrderStatus | null> {
    const [row] = await tx.query<{ status: OrderStatus }>(sql`
      SELECT status::text AS status FROM orders WHERE id = ${orderId} AND merchant_id = ${merchantId}`);
    return row?.status ?? null;
  }

  /** The order's checkout session with its lines and the order, as the outbox events carry it. */
  async sessionOf(tx: Tx, merchantId: string, orderId: string): Promise<Session> {
    const [row] = await tx.query<WholeSessionRow>(sql`
      SELECT ${WHOLE_SESSION} FROM orders AS o JOIN checkout_sessions AS s ON s.id = o.checkout_session_id
      WHERE o.id = ${orderId} AND o.merchant_id = ${merchantId}`);
    if (!row) throw new Error(`order ${orderId} of merchant ${merchantId} has no checkout session`);
    return decodeWholeSession(row);
  }
}
