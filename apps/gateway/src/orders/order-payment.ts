/**
 * An order's payment as the contract shows it (Order.payment): what its session's payment
 * operations say happened — the authorization its order settled, its capture, its refunds — and
 * the disputes the PSP reported. Amounts are what the PSP confirmed: a capture or refund still
 * pending counts once it succeeded. Null for an order placed before payments were recorded.
 */
import { toMajor } from '../kernel/money/money.js';
import type { Order } from '../contract/types.js';
import type { DisputeRecord } from '../payments/disputes/dispute.js';
import { SETTLED, type PaymentOperation } from '../payments/operations/payment-operation.js';

export type OrderPayment = NonNullable<Order['payment']>;
/** The admin API's PaymentOperation (OrderDetail.payment_operations). */
export interface PaymentOperationView {
  id: string;
  kind: PaymentOperation['kind'];
  state: PaymentOperation['state'];
  amount: number;
  currency: string;
  reference: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export function orderPayment(orderId: string, operations: readonly PaymentOperation[], disputes: readonly DisputeRecord[]): OrderPayment | null {
  // The capture that succeeded, when there is one: a refused or given-up capture may be followed by
  // one reconciliation made, or one Stripe's event recorded (settlement/reconciliation/, provider-events/).
  const captures = operations.filter((op) => op.kind === 'capture' && op.orderId === orderId);
  const capture = captures.find((op) => op.state === 'succeeded') ?? captures[0];
  const authorize = operations.find((op) => op.kind === 'authorize' && op.orderId === orderId) ?? operations.findLast((op) => op.kind === 'authorize');
  if (!capture && !authorize) return null;
  const main = capture ?? authorize!;
  const major = (minor: bigint) => toMajor(minor, main.currency);
  const refunds = operations.filter((op) => op.kind === 'refund' && op.orderId === orderId);
  const refunded = refunds.filter((op) => op.state === 'succeeded').reduce((sum, op) => sum + op.amount, 0n);
  const captured = capture?.state === 'succeeded' ? capture.amount : 0n;
  const canceled = operations.some((op) => op.kind === 'cancel' && op.state === 'succeeded' && op.reference === main.reference);
  const authorized = capture || authorize?.state === 'succeeded' ? main.amount : 0n;
  return {
    provider: main.provider,
    reference: main.reference,
    status: statusOf(capture, authorize, captured, refunded, canceled),
    authorized_amount: major(authorized),
    captured_amount: major(captured),
    refunded_amount: major(refunded),
    currency: main.currency,
    disputes: disputes.map((d) => ({
      id: d.id,
      amount: toMajor(d.amount, d.currency),
      currency: d.currency,
      reason: d.reason,
      status: d.status,
      created_at: d.createdAt.toISOString(),
      updated_at: d.updatedAt.toISOString(),
    })),
  };
}

function statusOf(capture: PaymentOperation | undefined, authorize: PaymentOperation | undefined, captured: bigint, refunded: bigint, canceled: boolean): OrderPayment['status'] {
  if (canceled && captured === 0n) return 'canceled';
  if (captured > 0n) return refunded >= captured ? 'refunded' : refunded > 0n ? 'partially_refunded' : 'captured';
  if (capture?.state === 'failed') return 'failed';
  if (capture) return 'authorized';
  if (authorize?.state === 'requires_action') return 'requires_action';
  if (authorize?.state === 'failed') return 'failed';
  return authorize?.state === 'succeeded' ? 'authorized' : 'pending';
}

/** One operation as an operator sees it (the admin API's order detail): amounts in major units. */
export function operationView(op: PaymentOperation): PaymentOperationView {
  return {
    id: op.id,
    kind: op.kind,
    state: op.state,
    amount: toMajor(op.amount, op.currency),
    currency: op.currency,
    reference: op.reference,
    attempts: op.attempts,
    last_error: op.lastError,
    next_attempt_at: op.nextAttemptAt.getTime() === SETTLED.getTime() ? null : op.nextAttemptAt.toISOString(),
    created_at: op.createdAt.toISOString(),
    updated_at: op.updatedAt.toISOString(),
  };
}
