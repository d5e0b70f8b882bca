/**
 * What the PSP reported of a payment, written to its payment operations (payments/operations/
 * owns the table; these are the only writes made from the PSP's word rather than its answers):
 * a capture or cancel the worker was still trying is confirmed done; a capture, cancel or refund
 * made at the PSP and not by us (its dashboard, an authorization that expired) is recorded as a
 * settled operation, so the order's payment shows it and nothing ever asks the PSP to do it
 * again. In the caller's transaction, with the event's effects.
 */
import { utc } from '../../db/sql-time.js';
import { sql } from '../../db/statement.js';
import type { Tx } from '../../db/transaction.js';
import { newId } from '../../kernel/ids.js';
import { SETTLED } from '../../payments/operations/payment-operation.js';

/** A capture or cancel made at the PSP: the payment it moved. */
export interface MoveElsewhere {
  merchantId: string;
  sessionId: string;
  orderId: string;
  provider: string;
  amount: bigint;
  currency: string;
  /** The PSP's payment (pi_…). */
  reference: string;
}

export interface RefundElsewhere {
  merchantId: string;
  sessionId: string;
  orderId: string;
  /** The order refund (order_refunds.id) it is recorded as. */
  refundId: string;
  provider: string;
  amount: bigint;
  currency: string;
  /** The PSP's refund (re_…), or the event that reported it. */
  reference: string;
}

export class PspFactsStore {
  /** A pending capture or cancel of the session's payment `reference`, confirmed done by the PSP; false when none was pending. */
  async confirmMove(tx: Tx, sessionId: string, kind: 'capture' | 'cancel', reference: string | null): Promise<boolean> {
    const count = await tx.execute(sql`
      UPDATE payment_operations SET state = 'succeeded'::"PaymentOperationState", last_error = NULL,
        next_attempt_at = ${utc(SETTLED)}, updated_at = (now() AT TIME ZONE 'UTC')
      WHERE session_id = ${sessionId} AND kind = ${kind}::"PaymentOperationKind" AND state = 'pending'
        AND (${reference}::text IS NULL OR reference IS NULL OR reference = ${reference}::text)`);
    return count > 0;
  }

  /**
   * A capture or cancel made at the PSP, as a settled operation, unless the session's payment is
   * already recorded so (a capture or cancel succeeded); false when nothing was recorded.
   */
  async recordMove(tx: Tx, kind: 'capture' | 'cancel', move: MoveElsewhere): Promise<boolean> {
    const count = await tx.execute(sql`
      INSERT INTO payment_operations (id, merchant_id, session_id, order_id, kind, state, provider, amount, currency, reference,
        idempotency_key, attempts, next_attempt_at, created_at, updated_at)
      SELECT ${newId('pop')}, ${move.merchantId}, ${move.sessionId}, ${move.orderId}, ${kind}::"PaymentOperationKind", 'succeeded'::"PaymentOperationState",
        ${move.provider}, ${move.amount}::bigint, ${move.currency}, ${move.reference}, ${`psp-${kind}:${move.reference}`}, 0, ${utc(SETTLED)},
        (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC')
      WHERE NOT EXISTS (SELECT 1 FROM payment_operations AS p WHERE p.session_id = ${move.sessionId} AND p.state = 'succeeded'
        AND p.kind IN ('capture', 'cancel') AND (p.reference IS NULL OR p.reference = ${move.reference}))
      ON CONFLICT (idempotency_key) DO NOTHING`);
    return count > 0;
  }

  /** A refund made at the PSP, as a settled refund operation (its key names the PSP's refund: recorded once). */
  async recordRefund(tx: Tx, refund: RefundElsewhere): Promise<void> {
    await tx.execute(sql`
      INSERT INTO payment_operations (id, merchant_id, session_id, order_id, refund_id, kind, state, provider, amount, currency, reference,
        idempotency_key, attempts, next_attempt_at, created_at, updated_at)
      VALUES (${newId('pop')}, ${refund.merchantId}, ${refund.sessionId}, ${refund.orderId}, ${refund.refundId}, 'refund'::"PaymentOperationKind",
        'succeeded'::"PaymentOperationState", ${refund.provider}, ${refund.amount}::bigint, ${refund.currency}, ${refund.reference},
        ${`psp-refund:${refund.reference}`}, 0, ${utc(SETTLED)}, (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC'))
      ON CONFLICT (idempotency_key) DO NOTHING`);
  }
}
