/**
 * Records, on the locked order, what the PSP says happened to its payment. The payment
 * operations (payments/operations/) own the payment's recorded state — a capture the worker was
 * still retrying, an authorization released at the PSP — and implement this interface; the part
 * that is the order's own is here: a refund made in the PSP's dashboard becomes an order refund,
 * so that the order's refunded amount is true.
 */
import type { Tx } from '../../db/transaction.js';
import { newId } from '../../ids.js';
import { refundable, refundedTotal } from '../../orders/order-progress.js';
import type { OrderRecord } from '../../orders/order-record.js';
import type { OrderStore } from '../../orders/order-store.js';
import type { PaymentFact } from './payment-event.js';

/** The facts about a payment (its disputes are recorded by PaymentEventService itself). */
export type PaymentStateFact = Exclude<PaymentFact, { kind: 'disputed' }>;

export interface PaymentStateRecorder {
  /** Records `fact` in the caller's transaction, the order locked; true when the order (or its payment) changed. */
  record(tx: Tx, order: OrderRecord, fact: PaymentStateFact, event: { id: string; provider: string }): Promise<boolean>;
}

/** The note of a refund the gateway did not make. */
export const refundElsewhereNote = (provider: string) => `Refunded at the payment provider (${provider}), not through the gateway`;

/**
 * A refund made at the PSP and not through us: the PSP's refunded total less the order's refunds
 * (which include ours in flight: an order refund is written before the PSP is asked), at most
 * what is left to pay back. Zero: nothing to record.
 */
export function refundMadeElsewhere(order: OrderRecord, pspRefunded: bigint): bigint {
  const missing = pspRefunded - refundedTotal(order);
  const left = refundable(order);
  return missing <= 0n || left <= 0n ? 0n : missing < left ? missing : left;
}

/** Records refunds made elsewhere as order refunds (reason `other`); the rest is the payment operations' (none recorded here). */
export class OrderRefundRecorder implements PaymentStateRecorder {
  constructor(private readonly orders: Pick<OrderStore, 'addRefund'>) {}

  async record(tx: Tx, order: OrderRecord, fact: PaymentStateFact, event: { id: string; provider: string }): Promise<boolean> {
    if (fact.kind !== 'refunded') return false;
    const amount = refundMadeElsewhere(order, fact.amount);
    if (amount === 0n) return false;
    await this.orders.addRefund(tx, order.session.order.id, {
      id: newId('re'),
      amount,
      reason: 'other',
      note: refundElsewhereNote(event.provider),
      lines: [],
      reference: fact.refundId ?? event.id,
    });
    return true;
  }
}
