/**
 * What an order's fulfillments, refunds and cancellation add up to, per line and as a status —
 * pure arithmetic over an OrderRecord, the one place that says what is left to fulfil and to pay back.
 *
 * Per line: to fulfil = ordered − fulfilled − refunded by line; nothing is left once canceled, nor
 * once everything paid was paid back (an order refunded in full by amount ships nothing more). Status, first match wins: canceled (canceled before anything was fulfilled) →
 * refunded (everything paid was paid back) → delivered (all fulfilled, every fulfillment delivered)
 * → fulfilled (all fulfilled) → partially_fulfilled (some) → created.
 */
import { allocate } from '../kernel/money/money.js';
import type { SessionLine } from '../checkout/session.js';
import type { LineUnits, OrderRecord, OrderStatus } from './order-record.js';

export interface LineProgress {
  line: SessionLine;
  ordered: number;
  fulfilled: number;
  refunded: number;
  /** Units canceled: what was neither fulfilled nor refunded when the order was canceled. */
  canceled: number;
  /** Units still to fulfil (0 once canceled). */
  remaining: number;
}

const sum = (lists: LineUnits[][], position: number) =>
  lists.reduce((total, lines) => total + lines.filter((l) => l.position === position).reduce((n, l) => n + l.quantity, 0), 0);

export function lineProgress(record: OrderRecord): LineProgress[] {
  const fulfilled = record.fulfillments.map((f) => f.lines);
  const refunded = record.refunds.map((r) => r.lines);
  const settled = refundedInFull(record);
  return record.session.lineItems.map((line) => {
    const done = sum(fulfilled, line.position);
    const back = sum(refunded, line.position);
    const open = Math.max(0, line.quantity - back - done);
    const canceled = record.canceledAt ? open : 0;
    return { line, ordered: line.quantity, fulfilled: done, refunded: back, canceled, remaining: settled ? 0 : open - canceled };
  });
}

/**
 * What the buyer paid for each line (by place in `lineItems`): its subtotal less its share of the
 * discounts, plus its share of the tax — the session's tax allocated over the taxable lines' amounts
 * after discount, as it was computed. Shipping belongs to no line.
 */
export function linePaid(record: OrderRecord): bigint[] {
  const lines = record.session.lineItems;
  const net = lines.map((line) => line.subtotal - line.discount);
  const tax = allocate(record.session.taxAmount, net.map((amount, i) => (lines[i]!.taxable ? amount : 0n)));
  return net.map((amount, i) => amount + tax[i]!);
}

/** What `units` of the order's lines were paid: each line's paid amount, prorated by units (rounded down to the minor unit). */
export function paidFor(record: OrderRecord, units: readonly LineUnits[]): bigint {
  const paid = linePaid(record);
  const lines = record.session.lineItems;
  return units.reduce((total, unit) => {
    const i = lines.findIndex((line) => line.position === unit.position);
    return i === -1 ? total : total + (paid[i]! * BigInt(unit.quantity)) / BigInt(lines[i]!.quantity);
  }, 0n);
}

/** Minor units paid back so far. */
export const refundedTotal = (record: OrderRecord): bigint => record.refunds.reduce((total, refund) => total + refund.amount, 0n);

/** Minor units paid and not yet paid back. */
export const refundable = (record: OrderRecord): bigint => record.session.order.total - refundedTotal(record);

/** Everything paid was paid back (an order of 0 never is): the order is `refunded`, and nothing is left to fulfil or cancel. */
export const refundedInFull = (record: OrderRecord): boolean => record.session.order.total > 0n && refundable(record) <= 0n;

export function deriveStatus(record: OrderRecord): OrderStatus {
  const lines = lineProgress(record);
  const fulfilled = lines.reduce((n, l) => n + l.fulfilled, 0);
  const remaining = lines.reduce((n, l) => n + l.remaining, 0);
  if (record.canceledAt && fulfilled === 0) return 'canceled';
  if (refundedInFull(record)) return 'refunded';
  if (fulfilled === 0) return 'created';
  if (remaining > 0) return 'partially_fulfilled';
  return record.fulfillments.every((f) => f.deliveredAt) ? 'delivered' : 'fulfilled';
}
