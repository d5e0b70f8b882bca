/**
 * What reconciliation compares with the PSP: every checkout session of the period that has a
 * payment at the PSP (its opened payment, or an authorization's reference), with its order when it
 * has one — the order's total, what we paid back, whether it is canceled — and what the payment
 * operations recorded of it. Read only; the repairs go through the payment operations.
 */
import type { Database } from '../../db/database.js';
import { iso } from '../../db/sql.js';
import { utc } from '../../db/sql-time.js';
import { joinSql, sql, type Statement } from '../../db/statement.js';

export interface ReconciledPayment {
  merchantId: string;
  sessionId: string;
  /** The PSP's payment (pi_…). */
  reference: string;
  sessionStatus: 'open' | 'completed' | 'canceled';
  sessionUpdatedAt: Date;
  currency: string;
  order: {
    id: string;
    /** Minor units. */
    total: bigint;
    /** What the order's refunds add up to (ours, and those made at the PSP already recorded). */
    refunded: bigint;
    canceled: boolean;
    /** Every unit refunded or canceled before anything shipped: nothing is owed to the merchant. */
    status: string;
  } | null;
  /** What the payment operations recorded: a capture succeeded or still being tried, a cancel. */
  recorded: { captured: boolean; capturePending: boolean; canceled: boolean; cancelPending: boolean };
}

export interface ReconcileScope {
  /** Payments of sessions created (or orders placed) at or after this time. */
  since: Date;
  merchantId?: string;
}

type Row = {
  merchant_id: string; session_id: string; reference: string; session_status: ReconciledPayment['sessionStatus']; session_updated_at: string; currency: string;
  order_id: string | null; total: string | null; refunded: string | null; canceled: boolean | null; order_status: string | null;
  captured: boolean; capture_pending: boolean; cancel_done: boolean; cancel_pending: boolean;
};

const op = (kind: string, state: Statement) =>
  sql`EXISTS (SELECT 1 FROM payment_operations AS p WHERE p.session_id = s.id AND p.kind = ${kind}::"PaymentOperationKind" AND ${state})`;

export class ReconciliationStore {
  constructor(private readonly db: Pick<Database, 'sql'>) {}

  /** The period's payments, oldest first. */
  async payments(scope: ReconcileScope): Promise<ReconciledPayment[]> {
    const where: Statement[] = [sql`(s.created_at >= ${utc(scope.since)} OR o.created_at >= ${utc(scope.since)})`];
    if (scope.merchantId !== undefined) where.push(sql`s.merchant_id = ${scope.merchantId}`);
    const rows = await this.db.sql.query<Row>(sql`
      SELECT * FROM (
        SELECT s.merchant_id, s.id AS session_id, s.status::text AS session_status, ${iso(sql`s.updated_at`)} AS session_updated_at, s.currency,
          COALESCE(s.payment_reference, (SELECT p.reference FROM payment_operations AS p
            WHERE p.session_id = s.id AND p.kind = 'authorize' AND p.reference IS NOT NULL ORDER BY p.created_at DESC, p.id DESC LIMIT 1)) AS reference,
          o.id AS order_id, o.total::text AS total, o.canceled_at IS NOT NULL AS canceled, o.status::text AS order_status,
          (SELECT COALESCE(sum(r.amount), 0)::text FROM order_refunds AS r WHERE r.order_id = o.id) AS refunded,
          ${op('capture', sql`p.state = 'succeeded'`)} AS captured,
          ${op('capture', sql`p.state = 'pending'`)} AS capture_pending,
          ${op('cancel', sql`p.state = 'succeeded'`)} AS cancel_done,
          ${op('cancel', sql`p.state = 'pending'`)} AS cancel_pending,
          s.created_at
        FROM checkout_sessions AS s LEFT JOIN orders AS o ON o.checkout_session_id = s.id
        WHERE ${joinSql(where, ' AND ')}) AS found
      WHERE reference IS NOT NULL
      ORDER BY created_at, session_id`);
    return rows.map((row) => ({
      merchantId: row.merchant_id,
      sessionId: row.session_id,
      reference: row.reference,
      sessionStatus: row.session_status,
      sessionUpdatedAt: new Date(row.session_updated_at),
      currency: row.currency,
      order: row.order_id
        ? { id: row.order_id, total: BigInt(row.total ?? '0'), refunded: BigInt(row.refunded ?? '0'), canceled: row.canceled ?? false, status: row.order_status ?? 'created' }
        : null,
      recorded: { captured: row.captured, capturePending: row.capture_pending, canceled: row.cancel_done, cancelPending: row.cancel_pending },
    }));
  }
}
