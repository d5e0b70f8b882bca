/**
 * Our whole `Order` (the `data.object` of an order change's event, amounts in major units) as
 * ACP 2026-04-17's `Order` (amounts in integer minor units, `rfc.orders.md`):
 *
 * - line items `li_<n>`: quantity `ordered`; `current` = ordered − refunded by line − canceled;
 *   `fulfilled` = units in our fulfillments; status by ACP's rule (removed / fulfilled / partial / processing);
 * - each fulfillment → a `shipping` fulfillment (`digital` when nothing ships) with carrier and
 *   tracking, status `shipped` or `delivered`, and its `shipped` (+ `delivered`) events;
 * - each refund → a completed `refund` adjustment (its lines, amount, reason), a cancellation →
 *   a completed `cancellation` adjustment of the canceled units; `amount_refunded` in totals;
 * - status: canceled → `canceled`; everything current fulfilled → `completed` once every
 *   fulfillment is delivered, else `shipped`; some fulfilled → `processing`; nothing current
 *   (all refunded) → `canceled`; else `created`.
 */
import { toMinor } from '../../kernel/money/money.js';
import type { Order } from '../../contract/types.js';
import { lineItemId, type AcpOrder } from './acp-order.js';

/** An `Order` (not a session): what order changes' events carry. */
export function isOrder(object: unknown): object is Order {
  const candidate = object as Partial<Order> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.id === 'string' && candidate.id.startsWith('ord_')
    && Array.isArray(candidate.line_items) && Array.isArray(candidate.fulfillments) && Array.isArray(candidate.refunds) && typeof candidate.amounts === 'object';
}

type Units = { line: number; quantity: number }[];
const unitsOf = (lists: Units[], line: number) => lists.flat().filter((u) => u.line === line).reduce((n, u) => n + u.quantity, 0);
const refs = (units: Units) => units.map((u) => ({ id: lineItemId(u.line - 1), quantity: u.quantity }));

export function toAcpOrderOf(order: Order, permalinkUrl: string): AcpOrder {
  const minor = (major: number) => Number(toMinor(major, order.currency));
  const digital = order.shipping.method === 'none';
  const canceledUnits: Units = [];
  const lines = order.line_items.map((line, index) => {
    const fulfilled = unitsOf(order.fulfillments.map((f) => f.lines), index + 1);
    const refunded = unitsOf(order.refunds.map((r) => r.lines), index + 1);
    const canceled = order.canceled_at ? Math.max(0, line.quantity - refunded - fulfilled) : 0;
    if (canceled > 0) canceledUnits.push({ line: index + 1, quantity: canceled });
    const current = line.quantity - refunded - canceled;
    return {
      id: lineItemId(index),
      title: line.title,
      product_id: line.product_id,
      quantity: { ordered: line.quantity, current, fulfilled },
      unit_price: minor(line.unit_price),
      subtotal: minor(line.subtotal),
      status: current === 0 ? 'removed' : fulfilled >= current ? 'fulfilled' : fulfilled > 0 ? 'partial' : 'processing',
    };
  });
  const fulfillments = order.fulfillments.map((f) => ({
    id: f.id,
    type: digital ? 'digital' : 'shipping',
    status: f.status,
    line_items: refs(f.lines),
    ...(f.carrier ? { carrier: f.carrier } : {}),
    ...(f.tracking_number ? { tracking_number: f.tracking_number } : {}),
    ...(f.tracking_url ? { tracking_url: new URL(f.tracking_url).href } : {}), // normalized: ACP's schema wants a strict URI
    events: [
      ...(digital ? [] : [{ id: `${f.id}_shipped`, type: 'shipped', occurred_at: f.created_at }]),
      ...(f.delivered_at ? [{ id: `${f.id}_delivered`, type: 'delivered', occurred_at: f.delivered_at }] : []),
    ],
  }));
  const adjustments: Record<string, unknown>[] = order.refunds.map((r) => ({
    id: r.id,
    type: 'refund',
    occurred_at: r.created_at,
    status: 'completed',
    ...(r.lines.length ? { line_items: refs(r.lines) } : {}),
    amount: minor(r.amount),
    currency: order.currency.toLowerCase(),
    description: r.note ?? `Refund (${r.reason.replaceAll('_', ' ')})`,
    reason: r.reason,
  }));
  if (order.canceled_at && canceledUnits.length) {
    adjustments.push({ id: `${order.id}_cancellation`, type: 'cancellation', occurred_at: order.canceled_at, status: 'completed', line_items: refs(canceledUnits), description: 'Canceled before fulfillment' });
  }
  const totals = [{ type: 'subtotal', display_text: 'Subtotal', amount: minor(order.amounts.subtotal) }];
  const discount = order.amounts.discount ?? 0; // absent from events queued before discounts
  if (discount > 0) totals.push({ type: 'discount', display_text: 'Discounts', amount: minor(discount) });
  if (!digital) totals.push({ type: 'fulfillment', display_text: 'Shipping', amount: minor(order.amounts.shipping) });
  totals.push({ type: 'tax', display_text: 'Tax', amount: minor(order.amounts.tax) }, { type: 'total', display_text: 'Total', amount: minor(order.amounts.total) });
  if (order.refunded_amount > 0) totals.push({ type: 'amount_refunded', display_text: 'Refunded', amount: minor(order.refunded_amount) });
  return {
    type: 'order',
    id: order.id,
    checkout_session_id: order.checkout_session_id,
    permalink_url: permalinkUrl,
    status: acpStatus(order, lines.map((l) => l.quantity)),
    line_items: lines,
    fulfillments,
    adjustments,
    totals,
  };
}

function acpStatus(order: Order, quantities: { current: number; fulfilled: number }[]): string {
  if (order.status === 'canceled') return 'canceled';
  const current = quantities.reduce((n, q) => n + q.current, 0);
  const fulfilled = quantities.reduce((n, q) => n + Math.min(q.fulfilled, q.current), 0);
  if (current === 0) return 'canceled';
  if (fulfilled === current) return order.fulfillments.every((f) => f.delivered_at) ? 'completed' : 'shipped';
  return fulfilled > 0 ? 'processing' : 'created';
}
