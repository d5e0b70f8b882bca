/**
 * What the PSP reported of a payment, written to its payment operations (payments/operations/
 * owns the table; these are the only writes made from the PSP's word rather than its answers):
 * a capture or cancel the worker was still trying is confirmed done, and a refund made at the PSP
 * (its dashboard) is recorded as a settled refund operation, so the order's payment shows it and
 * nothing ever asks the PSP to pay it again. In the caller's transaction, with the event's effects.
 */
import { utc } from '../../db/sql-time.js';
import { sql } from '../../db/statement.js';
import type { Tx } from '../../db/transaction.js';
import { newId } from '../../ids.js';
import { SETTLED } from '../operations/payment-operation.js';

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
