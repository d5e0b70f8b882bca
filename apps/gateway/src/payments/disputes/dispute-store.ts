/**
 * The only code that touches `payment_disputes`: a dispute as the PSP's webhooks last reported it,
 * and the disputes of orders (an order's payment summary, the admin API and console).
 *
 * Stripe does not promise to deliver events in order: a dispute's `updated_at` is the time of the
 * PSP event that last changed it, and an event older than that changes nothing.
 */
import type { Database } from '../../db/database.js';
import { iso, type Sql } from '../../db/sql.js';
import { utc } from '../../db/sql-time.js';
import { sql } from '../../db/statement.js';
import type { Tx } from '../../db/transaction.js';
import type { DisputeRecord } from './dispute.js';

export type { DisputeRecord };

type DisputeRow = { id: string; merchant_id: string; order_id: string; amount: string; currency: string; reason: string; status: string; created_at: string; updated_at: string };

const COLUMNS = sql`id, merchant_id, order_id, amount::text AS amount, currency, reason, status, ${iso(sql`created_at`)} AS created_at, ${iso(sql`updated_at`)} AS updated_at`;

const decode = (row: DisputeRow): DisputeRecord => ({
  id: row.id,
  merchantId: row.merchant_id,
  orderId: row.order_id,
  amount: BigInt(row.amount),
  currency: row.currency,
  reason: row.reason,
  status: row.status,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

export class DisputeStore {
  constructor(private readonly db: Pick<Database, 'sql'>) {}

  /**
   * Records the dispute as reported at `updatedAt`, in the caller's transaction: `inserted` the
   * first time it is heard of (whichever event that is), `updated` when this report is newer,
   * `unchanged` when a report as new or newer is already recorded (a duplicate or late event).
   */
  async upsert(tx: Tx, dispute: DisputeRecord): Promise<'inserted' | 'updated' | 'unchanged'> {
    const rows = await tx.query<{ inserted: boolean }>(sql`
      INSERT INTO payment_disputes (id, merchant_id, order_id, amount, currency, reason, status, created_at, updated_at)
      VALUES (${dispute.id}, ${dispute.merchantId}, ${dispute.orderId}, ${dispute.amount}, ${dispute.currency}, ${dispute.reason}, ${dispute.status},
              ${utc(dispute.createdAt)}, ${utc(dispute.updatedAt)})
      ON CONFLICT (id) DO UPDATE SET amount = EXCLUDED.amount, currency = EXCLUDED.currency, reason = EXCLUDED.reason,
        status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
      WHERE payment_disputes.updated_at < EXCLUDED.updated_at
        OR (payment_disputes.updated_at = EXCLUDED.updated_at AND payment_disputes.status IS DISTINCT FROM EXCLUDED.status)
      RETURNING (xmax = 0) AS inserted`);
    const [row] = rows;
    return !row ? 'unchanged' : row.inserted ? 'inserted' : 'updated';
  }

  /** The disputes of each order of `orderIds`, oldest first (an order without any is absent from the map). */
  async disputesOfOrders(orderIds: readonly string[], on: Sql = this.db.sql): Promise<Map<string, DisputeRecord[]>> {
    const byOrder = new Map<string, DisputeRecord[]>();
    if (orderIds.length === 0) return byOrder;
    const rows = await on.query<DisputeRow>(sql`
      SELECT ${COLUMNS} FROM payment_disputes WHERE order_id = ANY(${[...orderIds]}::text[]) ORDER BY created_at, id`);
    for (const dispute of rows.map(decode)) byOrder.set(dispute.orderId, [...(byOrder.get(dispute.orderId) ?? []), dispute]);
    return byOrder;
  }

  /** The disputes of one order, oldest first. */
  async ofOrder(orderId: string, on: Sql = this.db.sql): Promise<DisputeRecord[]> {
    return (await this.disputesOfOrders([orderId], on)).get(orderId) ?? [];
  }
}
