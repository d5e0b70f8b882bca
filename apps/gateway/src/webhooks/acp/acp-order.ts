/**
 * The `data.object` of an `order.*` event as ACP 2026-04-17's `Order`. Two shapes arrive: the
 * whole `Order` (every change since fulfillments and refunds: toAcpOrderOf, in acp-order-of.ts),
 * and the checkout session (`order.created`, and change events queued before this version):
 *
 * Our checkout session (amounts in major units) as
 * ACP 2026-04-17's `Order` (amounts in integer minor units, `rfc.orders.md`), the way an
 * agent's order webhook receives it. Built from the event alone, at delivery time.
 *
 * Our order status → ACP:
 *   created   → `created`; nothing fulfilled, `fulfillments: []`
 *   fulfilled → `shipped`; every line `fulfilled`, one fulfillment (shipping, or digital
 *               when nothing needs shipping) holding every line, with a `shipped` event
 *   canceled  → `canceled`; every line `removed` (current 0)
 *   refunded  → `canceled`; every line `removed`, a completed `refund` adjustment of the
 *               whole total and an `amount_refunded` total (our refunds are whole orders)
 */
import type { CheckoutSession, LineItem, OrderReference } from '../../contract/types.js';
import { toMinor } from '../../kernel/money/money.js';

type Total = { type: string; display_text: string; amount: number };

export interface AcpOrder {
  type: 'order';
  id: string;
  checkout_session_id: string;
  permalink_url: string;
  status: string;
  line_items: Record<string, unknown>[];
  fulfillments: Record<string, unknown>[];
  adjustments: Record<string, unknown>[];
  totals: Total[];
}

/** The session of an order.* event, with its order; anything else has no ACP form. */
export type SessionWithOrder = CheckoutSession & { order: OrderReference };

export function isSessionWithOrder(object: unknown): object is SessionWithOrder {
  const candidate = object as Partial<CheckoutSession> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.id === 'string'
    && Array.isArray(candidate.line_items) && typeof candidate.amounts === 'object'
    && typeof candidate.order === 'object' && candidate.order !== null && typeof candidate.order.id === 'string';
}

const STATUS: Record<OrderReference['status'], string> = { created: 'created', partially_fulfilled: 'processing', fulfilled: 'shipped', delivered: 'completed', canceled: 'canceled', refunded: 'canceled' };

/** `li_1`, `li_2`, …: the line's position in the session, stable for the order's life. */
export const lineItemId = (index: number) => `li_${index + 1}`;

export function toAcpOrder(session: SessionWithOrder, permalinkUrl: string, changedAt: string): AcpOrder {
  const { order, currency } = session;
  const minor = (major: number) => Number(toMinor(major, currency));
  const removed = order.status === 'canceled' || order.status === 'refunded';
  const fulfilled = order.status === 'fulfilled';
  const lines = session.line_items.map((line: LineItem, index) => {
    const current = removed ? 0 : line.quantity;
    const done = fulfilled ? current : 0;
    return {
      id: lineItemId(index),
      title: line.title,
      product_id: line.product_id,
      quantity: { ordered: line.quantity, current, fulfilled: done },
      unit_price: minor(line.unit_price),
      subtotal: minor(line.subtotal),
      status: current === 0 ? 'removed' : done === current ? 'fulfilled' : 'processing',
    };
  });
  const total = minor(session.amounts.total);
  const totals: Total[] = [{ type: 'subtotal', display_text: 'Subtotal', amount: minor(session.amounts.subtotal) }];
  // What discounts took off (absent from events queued before discounts): subtotal − discount + shipping + tax = total.
  const discount = session.amounts.discount ?? 0;
  if (discount > 0) totals.push({ type: 'discount', display_text: 'Discounts', amount: minor(discount) });
  if (session.shipping.method !== 'none') totals.push({ type: 'fulfillment', display_text: 'Shipping', amount: minor(session.amounts.shipping) });
  totals.push({ type: 'tax', display_text: 'Tax', amount: minor(session.amounts.tax) }, { type: 'total', display_text: 'Total', amount: total });
  const adjustments: Record<string, unknown>[] = [];
  if (order.status === 'refunded') {
    adjustments.push({ id: `adj_${order.id}_refund`, type: 'refund', occurred_at: changedAt, status: 'completed', amount: total, currency: currency.toLowerCase(), description: 'Order refunded in full' });
    totals.push({ type: 'amount_refunded', display_text: 'Refunded', amount: total });
  }
  const fulfillments = fulfilled
    ? [{
        id: `ful_${order.id}`,
        type: session.shipping.method === 'none' ? 'digital' : 'shipping',
        status: session.shipping.method === 'none' ? 'delivered' : 'shipped',
        line_items: lines.map((line) => ({ id: line.id, quantity: line.quantity.current })).filter((ref) => ref.quantity > 0),
        events: [{ id: `fe_${order.id}_1`, type: session.shipping.method === 'none' ? 'delivered' : 'shipped', occurred_at: changedAt }],
      }]
    : [];
  return {
    type: 'order',
    id: order.id,
    checkout_session_id: session.id,
    permalink_url: permalinkUrl,
    status: STATUS[order.status] ?? order.status,
    line_items: lines,
    fulfillments,
    adjustments,
    totals,
  };
}
