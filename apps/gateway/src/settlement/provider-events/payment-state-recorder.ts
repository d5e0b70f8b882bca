/**
 * Records, on the locked order, what the PSP says happened to its payment: a capture or cancel
 * the worker was still trying is done (the operation confirmed), and a refund made in the PSP's
 * dashboard becomes an order refund and a settled refund operation, so that the order's refunded
 * amount and its payment are true. A failed payment changes no order (an order exists only once
 * its payment was authorized).
 */
import type { Tx } from '../../db/transaction.js';
import { newId } from '../../kernel/ids.js';
import { refundable, refundedTotal } from '../../orders/order-progress.js';
import type { OrderRecord } from '../../orders/order-record.js';
import type { OrderStore } from '../../orders/order-store.js';
import type { PaymentEvent, PaymentFact } from './payment-event.js';
import type { PspFactsStore } from './psp-facts-store.js';

/** The facts about a payment (its disputes are recorded by PaymentEventService itself). */
export type PaymentStateFact = Exclude<PaymentFact, { kind: 'disputed' }>;

/** Who reported the fact: the PSP's event (its id, and the payment it names). */
export type PaymentEventSource = Pick<PaymentEvent, 'id' | 'provider'> & { target: Pick<PaymentEvent['target'], 'reference'> };

export interface PaymentStateRecorder {
  /** Records `fact` in the caller's transaction, the order locked; true when the order (or its payment) changed. */
  record(tx: Tx, order: OrderRecord, fact: PaymentStateFact, event: PaymentEventSource): Promise<boolean>;
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

/** Records the PSP's facts on the order (its refunds) and on its payment operations. */
export class PspFactsRecorder implements PaymentStateRecorder {
  constructor(
    private readonly orders: Pick<OrderStore, 'addRefund'>,
    /** Without it (a gateway without payment operations), only the order's refunds are recorded. */
    private readonly operations?: PspFactsStore,
  ) {}

  async record(tx: Tx, order: OrderRecord, fact: PaymentStateFact, event: PaymentEventSource): Promise<boolean> {
    const { session } = order;
    if (fact.kind === 'captured' || fact.kind === 'canceled') {
      const kind = fact.kind === 'captured' ? 'capture' : 'cancel';
      const reference = event.target.reference;
      if (!this.operations) return false;
      if (await this.operations.confirmMove(tx, session.id, kind, reference)) return true;
      // Not asked by us (Stripe's dashboard, an authorization that expired uncaptured): recorded as the PSP's.
      if (!reference) return false;
      const amount = fact.kind === 'captured' ? fact.amount : session.order.total;
      return this.operations.recordMove(tx, kind, { merchantId: session.merchantId, sessionId: session.id, orderId: session.order.id, provider: event.provider, amount, currency: session.order.currency, reference });
    }
    if (fact.kind !== 'refunded') return false;
    const amount = refundMadeElsewhere(order, fact.amount);
    if (amount === 0n) return false;
    const refundId = newId('re');
    const reference = fact.refundId ?? event.id;
    await this.orders.addRefund(tx, session.order.id, { id: refundId, amount, reason: 'other', note: refundElsewhereNote(event.provider), lines: [], reference });
    await this.operations?.recordRefund(tx, {
      merchantId: session.merchantId, sessionId: session.id, orderId: session.order.id, refundId, provider: event.provider, amount, currency: session.order.currency, reference,
    });
    return true;
  }
}
