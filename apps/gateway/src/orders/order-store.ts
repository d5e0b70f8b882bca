/**
 * Orders after checkout: the only code that reads them for the API and changes them once written
 * (checkout-store.ts writes them at completion). Reads run on the database's driver; changes in
 * the unit of work the service hands in.
 */
import type { OrderStatus, Session, SessionOrder } from '../checkout/session.js';
import { decodeWholeSession, WHOLE_SESSION, type WholeSessionRow } from '../checkout/session-rows.js';
import type { Database } from '../db/database.js';
import { iso } from '../db/sql.js';
import { NOW_UTC, utc } from '../db/sql-time.js';
import type { Tx } from '../db/transaction.js';
import { joinSql, sql, type Statement } from '../db/statement.js';
import type { OrderQuery, OrderRecord } from './order-record.js';

export type { OrderStatus };

type OrderRow = WholeSessionRow & { updated_at: string };

/** An order of `orders AS o` joined to its session `s`: the whole session and the order's updated_at. */
const ORDER_COLUMNS = sql`${WHOLE_SESSION}, ${iso(sql`o.updated_at`)} AS updated_at`;
const ORDERS_WITH_SESSIONS = sql`orders AS o JOIN checkout_sessions AS s ON s.id = o.checkout_session_id`;

function decodeOrder(row: OrderRow): OrderRecord {
  const session = decodeWholeSession(row);
  if (!session.order) throw new Error(`session ${session.id} read as an order has none`);
  return { session: session as Session & { order: SessionOrder }, updatedAt: new Date(row.updated_at) };
}

function conditions(merchantId: string, query: OrderQuery): Statement {
  const where: Statement[] = [sql`o.merchant_id = ${merchantId}`];
  if (query.status) where.push(sql`o.status = ${query.status}::"OrderStatus"`);
  if (query.createdAfter) where.push(sql`o.created_at > ${utc(query.createdAfter)}`);
  if (query.createdBefore) where.push(sql`o.created_at < ${utc(query.createdBefore)}`);
  if (query.email !== undefined) where.push(sql`lower(s.customer->>'email') = lower(${query.email}::text)`);
  if (query.after) where.push(sql`(o.created_at, o.id) < (${utc(query.after.createdAt)}, ${query.after.id}::text)`);
  return joinSql(where, ' AND ');
}

export class OrderStore {
  constructor(private readonly db: Database) {}

  /** The merchant's order, or null (an order of another merchant is null too). */
  async find(merchantId: string, orderId: string): Promise<OrderRecord | null> {
    const [row] = await this.db.sql.query<OrderRow>(sql`
      SELECT ${ORDER_COLUMNS} FROM ${ORDERS_WITH_SESSIONS} WHERE o.id = ${orderId} AND o.merchant_id = ${merchantId}`);
    return row ? decodeOrder(row) : null;
  }

  /** Up to `query.limit` orders matching the query, newest first (created_at, then id, descending). */
  async list(merchantId: string, query: OrderQuery): Promise<OrderRecord[]> {
    const rows = await this.db.sql.query<OrderRow>(sql`
      SELECT ${ORDER_COLUMNS} FROM ${ORDERS_WITH_SESSIONS}
      WHERE ${conditions(merchantId, query)}
      ORDER BY o.created_at DESC, o.id DESC
      LIMIT ${query.limit}`);
    return rows.map(decodeOrder);
  }

  /** Moves the order to `to` only from one of `from` (a compare-and-set); false when it was not there. */
  async changeStatus(tx: Tx, merchantId: string, orderId: string, from: readonly OrderStatus[], to: OrderStatus): Promise<boolean> {
    const count = await tx.execute(sql`
      UPDATE orders SET status = ${to}::"OrderStatus", updated_at = GREATEST(created_at, ${NOW_UTC})
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
