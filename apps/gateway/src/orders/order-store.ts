/**
 * Orders after checkout: the only code that reads them for the API and changes them once written
 * (checkout-store.ts writes them at completion) — their fulfillments, refunds and cancellation too.
 * Reads run on the database's driver; changes in the unit of work the service hands in, on an
 * order first locked with `lock`.
 */
import type { Session, SessionOrder } from '../checkout/session.js';
import { decodeWholeSession, WHOLE_SESSION, type WholeSessionRow } from '../checkout/session-rows.js';
import type { Database } from '../db/database.js';
import { iso, type Sql } from '../db/sql.js';
import { NOW_UTC, utc } from '../db/sql-time.js';
import type { Tx } from '../db/transaction.js';
import { joinSql, sql, type Statement } from '../db/statement.js';
import type { FulfillmentRecord, LineUnits, OrderQuery, OrderRecord, OrderStatus, RefundRecord } from './order-record.js';

export type { OrderStatus };

type OrderRow = WholeSessionRow & { updated_at: string; canceled_at: string | null };
type FulfillmentRow = { id: string; order_id: string; carrier: string | null; tracking_number: string | null; tracking_url: string | null; created_at: string; delivered_at: string | null; lines: LineUnits[] };
type RefundRow = { id: string; order_id: string; amount: string; reason: RefundRecord['reason']; note: string | null; lines: LineUnits[]; reference: string | null; created_at: string };

/**
 * An order of `orders AS o` joined to its session `s`: the whole session, the order's updated_at and canceled_at.
 * A read of checkout's table, on purpose: an order is shown as its session (lines, buyer, totals), in
 * checkout's own row shape (session-rows.ts), and reading the session apart would cost a round trip
 * per page of orders. Nothing here writes checkout_sessions.
 */
const ORDER_COLUMNS = sql`${WHOLE_SESSION}, ${iso(sql`o.updated_at`)} AS updated_at, ${iso(sql`o.canceled_at`)} AS canceled_at`;
const ORDERS_WITH_SESSIONS = sql`orders AS o JOIN checkout_sessions AS s ON s.id = o.checkout_session_id`;

function conditions(merchantId: string, query: OrderQuery): Statement {
  const where: Statement[] = [sql`o.merchant_id = ${merchantId}`];
  if (query.status) where.push(sql`o.status = ${query.status}::"OrderStatus"`);
  if (query.createdAfter) where.push(sql`o.created_at > ${utc(query.createdAfter)}`);
  if (query.createdBefore) where.push(sql`o.created_at < ${utc(query.createdBefore)}`);
  if (query.email !== undefined) where.push(sql`lower(s.customer->>'email') = lower(${query.email}::text)`);
  if (query.customerId !== undefined) where.push(sql`s.customer_id = ${query.customerId}::text`);
  if (query.after) where.push(sql`(o.created_at, o.id) < (${utc(query.after.createdAt)}, ${query.after.id}::text)`);
  return joinSql(where, ' AND ');
}

/** The orders of `rows` with their fulfillments and refunds, read on `on` (the driver or a transaction). */
async function withDetails(on: Sql, rows: OrderRow[]): Promise<OrderRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => JSON.parse(row.order!) as { id: string }).map((order) => order.id);
  const fulfillments = await on.query<FulfillmentRow>(sql`
    SELECT f.id, f.order_id, f.carrier, f.tracking_number, f.tracking_url, ${iso(sql`f.created_at`)} AS created_at, ${iso(sql`f.delivered_at`)} AS delivered_at,
      COALESCE((SELECT json_agg(json_build_object('position', l.position, 'quantity', l.quantity) ORDER BY l.position)
                FROM order_fulfillment_lines AS l WHERE l.fulfillment_id = f.id), '[]'::json) AS lines
    FROM order_fulfillments AS f WHERE f.order_id = ANY(${ids}::text[]) ORDER BY f.created_at, f.id`);
  const refunds = await on.query<RefundRow>(sql`
    SELECT r.id, r.order_id, r.amount::text AS amount, r.reason::text AS reason, r.note, r.lines, r.reference, ${iso(sql`r.created_at`)} AS created_at
    FROM order_refunds AS r WHERE r.order_id = ANY(${ids}::text[]) ORDER BY r.created_at, r.id`);
  return rows.map((row, index) => {
    const session = decodeWholeSession(row);
    if (!session.order) throw new Error(`session ${session.id} read as an order has none`);
    const id = ids[index]!;
    return {
      session: session as Session & { order: SessionOrder },
      updatedAt: new Date(row.updated_at),
      canceledAt: row.canceled_at ? new Date(row.canceled_at) : null,
      fulfillments: fulfillments.filter((f) => f.order_id === id).map(decodeFulfillment),
      refunds: refunds.filter((r) => r.order_id === id).map(decodeRefund),
    };
  });
}

const decodeFulfillment = (row: FulfillmentRow): FulfillmentRecord => ({
  id: row.id,
  carrier: row.carrier,
  trackingNumber: row.tracking_number,
  trackingUrl: row.tracking_url,
  lines: typeof row.lines === 'string' ? (JSON.parse(row.lines) as LineUnits[]) : row.lines,
  createdAt: new Date(row.created_at),
  deliveredAt: row.delivered_at ? new Date(row.delivered_at) : null,
});

const decodeRefund = (row: RefundRow): RefundRecord => ({
  id: row.id,
  amount: BigInt(row.amount),
  reason: row.reason,
  note: row.note,
  lines: typeof row.lines === 'string' ? (JSON.parse(row.lines) as LineUnits[]) : row.lines,
  reference: row.reference,
  createdAt: new Date(row.created_at),
});

export class OrderStore {
  constructor(private readonly db: Database) {}

  /** The id of the order a checkout session became, or null (payments' port SessionOrders: an authorization's fate). */
  async orderOfSession(sessionId: string): Promise<string | null> {
    const [row] = await this.db.sql.query<{ id: string }>(sql`SELECT id FROM orders WHERE checkout_session_id = ${sessionId}`);
    return row?.id ?? null;
  }

  /** The merchant's order, or null (an order of another merchant is null too). */
  async find(merchantId: string, orderId: string): Promise<OrderRecord | null> {
    const rows = await this.db.sql.query<OrderRow>(sql`
      SELECT ${ORDER_COLUMNS} FROM ${ORDERS_WITH_SESSIONS} WHERE o.id = ${orderId} AND o.merchant_id = ${merchantId}`);
    const [record] = await withDetails(this.db.sql, rows);
    return record ?? null;
  }

  /** Up to `query.limit` orders matching the query, newest first (created_at, then id, descending). */
  async list(merchantId: string, query: OrderQuery): Promise<OrderRecord[]> {
    const rows = await this.db.sql.query<OrderRow>(sql`
      SELECT ${ORDER_COLUMNS} FROM ${ORDERS_WITH_SESSIONS}
      WHERE ${conditions(merchantId, query)}
      ORDER BY o.created_at DESC, o.id DESC
      LIMIT ${query.limit}`);
    return withDetails(this.db.sql, rows);
  }

  /** Locks the merchant's order for a change (until the transaction ends) and reads it; null when there is none. */
  async lock(tx: Tx, merchantId: string, orderId: string): Promise<OrderRecord | null> {
    const locked = await tx.query<{ id: string }>(sql`SELECT id FROM orders WHERE id = ${orderId} AND merchant_id = ${merchantId} FOR UPDATE`);
    if (locked.length === 0) return null;
    const rows = await tx.query<OrderRow>(sql`SELECT ${ORDER_COLUMNS} FROM ${ORDERS_WITH_SESSIONS} WHERE o.id = ${orderId}`);
    const [record] = await withDetails(tx, rows);
    return record ?? null;
  }

  async addFulfillment(tx: Tx, orderId: string, fulfillment: Omit<FulfillmentRecord, 'createdAt' | 'deliveredAt'>): Promise<void> {
    await tx.execute(sql`
      INSERT INTO order_fulfillments (id, order_id, carrier, tracking_number, tracking_url, created_at)
      VALUES (${fulfillment.id}, ${orderId}, ${fulfillment.carrier}, ${fulfillment.trackingNumber}, ${fulfillment.trackingUrl}, ${NOW_UTC})`);
    const values = fulfillment.lines.map((line) => sql`(${fulfillment.id}, ${line.position}::int, ${line.quantity}::int)`);
    await tx.execute(sql`INSERT INTO order_fulfillment_lines (fulfillment_id, position, quantity) VALUES ${joinSql(values, ', ')}`);
  }

  /** Marks the order's fulfillment delivered now; false when it is not the order's or already delivered. */
  async markDelivered(tx: Tx, orderId: string, fulfillmentId: string): Promise<boolean> {
    const count = await tx.execute(sql`
      UPDATE order_fulfillments SET delivered_at = GREATEST(created_at, ${NOW_UTC})
      WHERE id = ${fulfillmentId} AND order_id = ${orderId} AND delivered_at IS NULL`);
    return count === 1;
  }

  async addRefund(tx: Tx, orderId: string, refund: Omit<RefundRecord, 'createdAt'>): Promise<void> {
    await tx.execute(sql`
      INSERT INTO order_refunds (id, order_id, amount, reason, note, lines, reference, created_at)
      VALUES (${refund.id}, ${orderId}, ${refund.amount}, ${refund.reason}::"RefundReason", ${refund.note}, ${JSON.stringify(refund.lines)}::jsonb, ${refund.reference}::text, ${NOW_UTC})`);
  }

  /** Takes back a refund the payment provider finally refused (order-service.ts: refundRefused). */
  async removeRefund(tx: Tx, refundId: string): Promise<void> {
    await tx.execute(sql`DELETE FROM order_refunds WHERE id = ${refundId}`);
  }

  async markCanceled(tx: Tx, orderId: string): Promise<void> {
    await tx.execute(sql`UPDATE orders SET canceled_at = GREATEST(created_at, ${NOW_UTC}) WHERE id = ${orderId}`);
  }

  /** The merchant's orders since `since` per currency: how many, and their totals as placed (minor units, as text). */
  async totalsSince(merchantId: string, since: Date): Promise<{ currency: string; orders: number; revenue: string }[]> {
    return this.db.sql.query(sql`
      SELECT currency, count(*)::int4 AS orders, sum(total)::text AS revenue
        FROM orders WHERE merchant_id = ${merchantId} AND created_at >= ${utc(since)}
       GROUP BY currency ORDER BY currency`);
  }

  /** How many orders the merchant took each UTC day (YYYY-MM-DD) since `since`; a day without any is absent. */
  async ordersPerDaySince(merchantId: string, since: Date): Promise<{ day: string; orders: number }[]> {
    return this.db.sql.query(sql`
      SELECT to_char(date_trunc('day', created_at), 'YYYY-MM-DD') AS day, count(*)::int4 AS orders
        FROM orders WHERE merchant_id = ${merchantId} AND created_at >= ${utc(since)}
       GROUP BY 1`);
  }

  /** Writes the order's (derived) status and that it changed now. */
  async touch(tx: Tx, orderId: string, status: OrderStatus): Promise<void> {
    await tx.execute(sql`
      UPDATE orders SET status = ${status}::"OrderStatus", updated_at = GREATEST(created_at, ${NOW_UTC}) WHERE id = ${orderId}`);
  }
}
