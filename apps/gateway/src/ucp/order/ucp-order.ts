/**
 * Our whole `Order` (amounts in major units) as the official UCP order of a release (order.md,
 * `schemas/shopping/order.json`; amounts in integer minor units) — what `GET /ucp/orders/{id}`
 * answers and what an order webhook carries, a current-state snapshot:
 *
 * - line items `li_<n>` (the line's place in the checkout): `item` {product id, title, unit price};
 *   quantity `total` = ordered − refunded − canceled units, `fulfilled` = units in fulfillments
 *   (at most `total`), and at 2026-04-08 `original` = ordered; status by the release's derivation
 *   (2026-04-08: total 0 → `removed`; 2026-01-11 has no `removed`);
 * - one expectation (`exp_1`) of every unit still due, `shipping` to the shipping address
 *   (`digital` when nothing ships), worded after the order's progress;
 * - fulfillment events, an append-only log in time order: per fulfillment `shipped` (carrier,
 *   tracking) and `delivered` (a digital fulfillment: `delivered` at once);
 * - adjustments: each refund (`refund`, its lines and amount) and a cancellation (`cancellation`,
 *   the units canceled); 2026-04-08 signs reductions (negative quantities and `totals`),
 *   2026-01-11 has a positive `amount`;
 * - order totals subtotal, discount, fulfillment (when shipping), tax, total — 2026-04-08 gives
 *   the discount as a negative amount, 2026-01-11 as a positive one;
 * - `ucp` envelope: the release and the order capability (an object keyed by capability name at
 *   2026-04-08, an array of `{name, version}` at 2026-01-11). `currency` exists at 2026-04-08 only;
 *   the destination's `full_name` at 2026-01-11 only.
 * Each difference is the release's (releases/: `order`, `reduction`, `capabilityRegistry`).
 */
import { toMinor } from '../../kernel/money/money.js';
import type { Address, Order } from '../../contract/types.js';
import { CAPABILITY } from '../capabilities.js';
import { toUcpAddress } from '../checkout/address.js';
import { releaseOf } from '../releases/releases.js';
import type { UcpVersion } from '../ucp-version.js';

export const ORDER_CAPABILITY = CAPABILITY.order;

/** A UCP order as sent (validated against the release's order.json in the tests). */
export type UcpOrder = Record<string, unknown> & { id: string; checkout_id: string };

type Units = { line: number; quantity: number }[];

const lineItemId = (line: number) => `li_${line}`;
const unitsOf = (lists: Units[], line: number) => lists.flat().filter((u) => u.line === line).reduce((n, u) => n + u.quantity, 0);

export function toUcpOrder(order: Order, version: UcpVersion, permalinkUrl: string): UcpOrder {
  const release = releaseOf(version);
  const shape = release.order;
  const minor = (major: number) => Number(toMinor(major, order.currency));
  const digital = order.shipping.method === 'none';
  const refs = (units: Units, quantity = (count: number) => count) => units.filter((u) => u.quantity > 0).map((u) => ({ id: lineItemId(u.line), quantity: quantity(u.quantity) }));

  const canceledUnits: Units = [];
  const due: Units = [];
  const lineItems = order.line_items.map((line, index) => {
    const number = index + 1;
    const shipped = unitsOf(order.fulfillments.map((f) => f.lines), number);
    const refunded = unitsOf(order.refunds.map((r) => r.lines), number);
    const canceled = order.canceled_at ? Math.max(0, line.quantity - refunded - shipped) : 0;
    if (canceled > 0) canceledUnits.push({ line: number, quantity: canceled });
    const total = Math.max(0, line.quantity - refunded - canceled);
    const fulfilled = Math.min(shipped, total);
    if (total > fulfilled) due.push({ line: number, quantity: total - fulfilled });
    const status = shape.removedLines && total === 0 ? 'removed' : fulfilled === total ? 'fulfilled' : fulfilled > 0 ? 'partial' : 'processing';
    const subtotal = minor(line.subtotal);
    return {
      id: lineItemId(number),
      item: { id: line.product_id, title: line.title, price: minor(line.unit_price) },
      quantity: shape.originalQuantity ? { original: line.quantity, total, fulfilled } : { total, fulfilled },
      totals: [
        { type: 'subtotal', amount: subtotal },
        { type: 'total', amount: Math.max(0, subtotal - minor(line.discount ?? 0)) },
      ],
      status,
    };
  });

  const everyUnit: Units = lineItems.map((line, index) => ({ line: index + 1, quantity: line.quantity.total }));
  const expectations = everyUnit.some((u) => u.quantity > 0)
    ? [{
        id: 'exp_1',
        line_items: refs(everyUnit),
        method_type: digital ? 'digital' : 'shipping',
        destination: { ...(order.shipping_address ? toUcpAddress(order.shipping_address) : {}), ...(shape.destinationFullName && order.shipping_address?.name ? { full_name: order.shipping_address.name } : {}) },
        description: expectationText(order, due.length > 0, digital),
        ...(due.length > 0 && !order.canceled_at ? { fulfillable_on: 'now' } : {}),
      }]
    : [];

  const events = order.fulfillments
    .flatMap((f) => {
      const tracking = {
        ...(f.carrier ? { carrier: f.carrier } : {}),
        ...(f.tracking_number ? { tracking_number: f.tracking_number } : {}),
        ...(f.tracking_url ? { tracking_url: new URL(f.tracking_url).href } : {}),
      };
      const lines = refs(f.lines);
      if (digital) return [{ id: `${f.id}_delivered`, occurred_at: f.created_at, type: 'delivered', line_items: lines, ...tracking, description: 'Delivered digitally' }];
      return [
        { id: `${f.id}_shipped`, occurred_at: f.created_at, type: 'shipped', line_items: lines, ...tracking, description: f.carrier ? `Shipped with ${f.carrier}` : 'Shipped' },
        ...(f.delivered_at ? [{ id: `${f.id}_delivered`, occurred_at: f.delivered_at, type: 'delivered', line_items: lines, ...tracking, description: 'Delivered' }] : []),
      ];
    })
    .sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));

  const adjustments: { id: string; occurred_at: string; [key: string]: unknown }[] = order.refunds.map((r) => ({
    id: r.id,
    type: 'refund',
    occurred_at: r.created_at,
    status: 'completed',
    ...(r.lines.length ? { line_items: refs(r.lines, release.reduction) } : {}),
    ...shape.adjustmentAmount(minor(r.amount)),
    description: r.note ?? `Refund (${r.reason.replaceAll('_', ' ')})`,
  }));
  if (order.canceled_at && canceledUnits.length) {
    adjustments.push({ id: `${order.id}_cancellation`, type: 'cancellation', occurred_at: order.canceled_at, status: 'completed', line_items: refs(canceledUnits, release.reduction), description: 'Canceled before fulfillment' });
  }
  adjustments.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));

  const discount = minor(order.amounts.discount ?? 0);
  const totals = [
    { type: 'subtotal', display_text: 'Subtotal', amount: minor(order.amounts.subtotal) },
    ...(discount > 0 ? [{ type: 'discount', display_text: 'Discounts', amount: release.reduction(discount) }] : []),
    ...(digital ? [] : [{ type: 'fulfillment', display_text: 'Shipping', amount: minor(order.amounts.shipping) }]),
    { type: 'tax', display_text: 'Tax', amount: minor(order.amounts.tax) },
    { type: 'total', display_text: 'Total', amount: minor(order.amounts.total) },
  ];

  return {
    ucp: { version, capabilities: release.capabilityRegistry([{ name: ORDER_CAPABILITY, version }]) },
    id: order.id,
    checkout_id: order.checkout_session_id,
    permalink_url: permalinkUrl,
    ...(shape.currency ? { currency: order.currency } : {}),
    line_items: lineItems,
    fulfillment: { expectations, events },
    adjustments,
    totals,
  };
}

function expectationText(order: Order, unitsDue: boolean, digital: boolean): string {
  if (!unitsDue) {
    const delivered = order.fulfillments.every((f) => f.delivered_at) || digital;
    return delivered ? 'Delivered' : 'Shipped';
  }
  if (order.canceled_at) return 'Canceled';
  if (digital) return 'Available once processed';
  return order.fulfillments.length ? 'Partly shipped; the rest ships soon' : 'Preparing for shipment';
}
