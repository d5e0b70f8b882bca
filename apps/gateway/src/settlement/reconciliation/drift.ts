/**
 * Where our record of a payment and the PSP's disagree, and what repairs it — pure arithmetic
 * over one payment (reconciliation-store.ts) and the PSP's view of it (PaymentProvider.retrieve).
 * Amounts are minor units. Moves still being tried by the worker (a capture or cancel pending) are
 * in flight, not drift.
 *
 * | kind                       | ours                          | the PSP's                  | repair                  |
 * |----------------------------|-------------------------------|----------------------------|-------------------------|
 * | authorized_not_captured    | an order to be paid           | authorized, not captured   | capture the order total |
 * | cancel_missing             | order or session canceled     | still authorized           | cancel                  |
 * | authorized_without_order   | a session with no order       | authorized                 | cancel                  |
 * | captured_without_order     | a session with no order       | captured                   | refund what was kept    |
 * | captured_amount_differs    | the order's total             | another amount captured    | none: review            |
 * | refunded_elsewhere         | our refunds                   | more refunded              | record the refund       |
 * | refund_not_at_psp          | our refunds                   | less refunded              | none: review            |
 * | not_paid_at_psp            | an order to be paid           | released, failed or open   | none: review            |
 * | unknown_at_psp             | a payment reference           | no such payment            | none: review            |
 */
import type { PaymentState } from '../../payments/payment-provider.js';
import type { ReconciledPayment } from './reconciliation-store.js';

export type DriftKind =
  | 'authorized_not_captured'
  | 'cancel_missing'
  | 'authorized_without_order'
  | 'captured_without_order'
  | 'captured_amount_differs'
  | 'refunded_elsewhere'
  | 'refund_not_at_psp'
  | 'not_paid_at_psp'
  | 'unknown_at_psp';

export type RepairAction = 'capture' | 'cancel' | 'refund' | 'record_refund';

export interface Drift {
  kind: DriftKind;
  merchantId: string;
  sessionId: string;
  orderId: string | null;
  reference: string;
  currency: string;
  /** What we say, and what the PSP says, in minor units where an amount is meant. */
  ours: { state: string; amount: bigint };
  psp: { state: string; amount: bigint };
  /** What repairs it (and the amount it moves or records), or null when a person must look. */
  repair: { action: RepairAction; amount: bigint } | null;
}

export interface DriftOptions {
  now: Date;
  /** How long a session without an order may hold a payment before it is drift (the buyer may be completing): default 1 hour. */
  openSessionGraceMs?: number;
}

export function driftOf(payment: ReconciledPayment, psp: PaymentState | null, options: DriftOptions): Drift | null {
  const base = { merchantId: payment.merchantId, sessionId: payment.sessionId, orderId: payment.order?.id ?? null, reference: payment.reference, currency: payment.currency };
  const drift = (kind: DriftKind, ours: Drift['ours'], theirs: Drift['psp'], repair: Drift['repair']): Drift => ({ kind, ...base, ours, psp: theirs, repair });
  const { order, recorded } = payment;
  if (!psp) return drift('unknown_at_psp', { state: order ? 'ordered' : payment.sessionStatus, amount: order?.total ?? 0n }, { state: 'unknown', amount: 0n }, null);
  const kept = psp.captured - psp.refunded;

  if (!order) {
    const grace = options.openSessionGraceMs ?? 3_600_000;
    const settled = payment.sessionStatus !== 'open' || options.now.getTime() - payment.sessionUpdatedAt.getTime() > grace;
    if (!settled || recorded.cancelPending) return null;
    if (psp.status === 'authorized') return drift('authorized_without_order', { state: `session ${payment.sessionStatus}, no order`, amount: 0n }, { state: 'authorized', amount: psp.authorized }, { action: 'cancel', amount: psp.authorized });
    if (psp.status === 'captured' && kept > 0n) return drift('captured_without_order', { state: `session ${payment.sessionStatus}, no order`, amount: 0n }, { state: 'captured', amount: kept }, { action: 'refund', amount: kept });
    return null;
  }

  if (psp.status === 'authorized') {
    if (order.canceled && order.status === 'canceled') {
      return recorded.cancelPending ? null : drift('cancel_missing', { state: 'canceled', amount: 0n }, { state: 'authorized', amount: psp.authorized }, { action: 'cancel', amount: psp.authorized });
    }
    if (recorded.capturePending) return null;
    return drift('authorized_not_captured', { state: recorded.captured ? 'captured' : 'ordered', amount: order.total }, { state: 'authorized', amount: psp.authorized }, { action: 'capture', amount: order.total < psp.authorized ? order.total : psp.authorized });
  }
  if (psp.status === 'captured') {
    if (psp.captured !== order.total) return drift('captured_amount_differs', { state: 'ordered', amount: order.total }, { state: 'captured', amount: psp.captured }, null);
    if (psp.refunded > order.refunded) return drift('refunded_elsewhere', { state: 'refunded', amount: order.refunded }, { state: 'refunded', amount: psp.refunded }, { action: 'record_refund', amount: psp.refunded - order.refunded });
    if (psp.refunded < order.refunded) return drift('refund_not_at_psp', { state: 'refunded', amount: order.refunded }, { state: 'refunded', amount: psp.refunded }, null);
    return null;
  }
  if (psp.captured === 0n && !(order.canceled && order.status === 'canceled') && order.total > 0n) {
    return drift('not_paid_at_psp', { state: order.status, amount: order.total }, { state: psp.status, amount: 0n }, null);
  }
  return null;
}
