/** The domain's OrderRecord → the contract's Order: lines and amounts exactly as the session shows them. */
import { toMajor } from '../kernel/money/money.js';
import { toCheckoutSession } from '../checkout/session-mapper.js';
import type { Order } from '../contract/types.js';
import type { LineUnits, OrderRecord } from './order-record.js';
import { refundedTotal } from './order-progress.js';

/** The contract's `line` (1-based place in `line_items`) of each session line position, and back. */
export function lineNumbers(record: OrderRecord): { toLine: (position: number) => number; toPosition: (line: number) => number | undefined } {
  const positions = record.session.lineItems.map((line) => line.position);
  return { toLine: (position) => positions.indexOf(position) + 1, toPosition: (line) => positions[line - 1] };
}

/** `payment`: the order's payment (order-payment.ts); null when none was recorded (or not read). */
export function toOrder(record: OrderRecord, payment: Order['payment'] = null): Order {
  const { session, updatedAt } = record;
  const shown = toCheckoutSession(session);
  const { toLine } = lineNumbers(record);
  const lines = (units: LineUnits[]) => units.map((unit) => ({ line: toLine(unit.position), quantity: unit.quantity }));
  const major = (minor: bigint) => toMajor(minor, session.currency);
  return {
    id: session.order.id,
    status: session.order.status as Order['status'], // the stored column holds the statuses this version added too
    checkout_session_id: session.id,
    currency: shown.currency,
    line_items: shown.line_items,
    shipping: shown.shipping,
    tax: shown.tax,
    amounts: shown.amounts,
    discounts: shown.discounts,
    customer: shown.customer,
    customer_id: shown.customer_id,
    shipping_address: shown.shipping_address,
    fulfillments: record.fulfillments.map((f) => ({
      id: f.id,
      status: f.deliveredAt ? 'delivered' : 'shipped',
      carrier: f.carrier,
      tracking_number: f.trackingNumber,
      tracking_url: f.trackingUrl,
      lines: lines(f.lines),
      created_at: f.createdAt.toISOString(),
      delivered_at: f.deliveredAt?.toISOString() ?? null,
    })),
    refunds: record.refunds.map((r) => ({
      id: r.id,
      amount: major(r.amount),
      reason: r.reason,
      note: r.note,
      lines: lines(r.lines),
      created_at: r.createdAt.toISOString(),
    })),
    refunded_amount: major(refundedTotal(record)),
    payment,
    canceled_at: record.canceledAt?.toISOString() ?? null,
    created_at: session.order.createdAt.toISOString(),
    updated_at: updatedAt.toISOString(),
  };
}
