/**
 * A domain SessionRecord as ACP 2026-04-17's CheckoutSession (or CheckoutSessionWithOrder once
 * completed): amounts in integer minor units, `totals[]`, line items with their own totals,
 * fulfillment options from our shipping settings, the negotiated capabilities, and messages.
 */
import type { FulfillmentOption } from '../../checkout/fulfillment-options.js';
import { PENDING_METHOD } from '../../shipping/shipping-provider.js';
import { addBusinessDays } from '../../shipping/business-days.js';
import type { PaymentHandlerDeclaration } from '../../payments/payment-provider.js';
import type { SessionRecord } from '../../checkout/session-record.js';
import { ACP_VERSION } from '../acp-version.js';
import { sessionCapabilities } from '../capabilities.js';
import { acpStateOf } from './acp-state.js';
import type * as Acp from '../generated/index.js';
import type { AcpTotal } from './acp-types.js';
import { allocate } from '../../kernel/money/money.js';
import { minor } from './amounts.js';
import { DISCOUNT_EXTENSION, rejectionMessages, shippingDiscount, toAcpDiscounts } from './discounts.js';
import { statusOf } from './session-status.js';

/** Our order status → ACP's (as order webhooks show it): partially fulfilled is processing, delivered completed. */
const ACP_ORDER_STATUS: Record<string, string> = { fulfilled: 'shipped', partially_fulfilled: 'processing', delivered: 'completed' };

export interface SessionContext {
  /** The payment handlers the session's merchant offers. */
  handlers: PaymentHandlerDeclaration[];
  /** The merchant's order page for an order id. */
  orderUrl: (orderId: string) => string;
}

const total = (type: AcpTotal['type'], display_text: string, amount: bigint): AcpTotal => ({ type, display_text, amount: minor(amount) });

/**
 * An option as ACP shows it; a delivery estimate in business days becomes its earliest and latest
 * delivery times, counted from the session's last change. An option a free-shipping promotion made
 * free (`originalAmount`, the quote's) shows what it cost, the promotion as a `discount`, and 0.
 */
function fulfillmentOption(option: FulfillmentOption, from: Date, originalAmount: bigint | undefined) {
  const promoted = originalAmount !== undefined && originalAmount > option.amount;
  return {
    type: option.type,
    id: option.id,
    title: option.title,
    description: option.description,
    ...(option.estimate
      ? {
          earliest_delivery_time: addBusinessDays(from, option.estimate.minBusinessDays).toISOString(),
          latest_delivery_time: addBusinessDays(from, option.estimate.maxBusinessDays).toISOString(),
        }
      : {}),
    totals: promoted
      ? [total('fulfillment', option.title, originalAmount), total('discount', 'Promotion', originalAmount - option.amount), total('total', option.title, option.amount)]
      : [total('total', option.title, option.amount)],
  };
}

/** The lines in order, each with the item id the agent knows it by (its SKU for a session made through our own API). */
function linesOf(record: SessionRecord) {
  const state = acpStateOf(record.session.protocolState);
  const lines = [...record.session.lineItems].sort((a, b) => a.position - b.position);
  return { lines, itemIds: lines.map((line, i) => state.item_ids[i] ?? line.variantSku) };
}

/** The item ids of the session's cart, as its answers show them (`line_items[].item.id`). */
export function cartItemIds(record: SessionRecord): string[] {
  return linesOf(record).itemIds;
}

export function toAcpSession(record: SessionRecord, context: SessionContext): Acp.CheckoutSession | Acp.CheckoutSessionWithOrder {
  const { session } = record;
  const state = acpStateOf(session.protocolState);
  const { lines, itemIds } = linesOf(record);
  // Tax is computed after discount: each taxable line's share is by what it costs after its discount.
  const net = lines.map((line) => (line.taxable ? line.subtotal - line.discount : 0n));
  const taxShares = allocate(session.taxAmount, net.some((amount) => amount > 0n) ? net : lines.map((line) => (line.taxable ? line.subtotal : 0n)));
  const discountsActive = (state.extensions ?? []).includes(DISCOUNT_EXTENSION);
  // A free-shipping promotion: the option is free (fulfillment-options.ts); see totals below.
  const freeShipping = shippingDiscount(session);
  const originalAmounts = new Map((session.shippingOptions ?? []).flatMap((option) => (option.originalAmount !== undefined ? [[option.id, option.originalAmount] as const] : [])));
  const shortOf = new Map(record.shortages.flatMap((s) => s.lines.map((line) => [line, s.available] as const)));
  const { status, messages: statusMessages } = statusOf(record, state);
  // Codes that did not apply never block the cart: warnings, while the session is open (RFC §7).
  const messages = session.status === 'open' ? [...statusMessages, ...rejectionMessages(session, discountsActive)] : statusMessages;
  const chosen = record.fulfillmentOptions.find((option) => option.id === session.fulfillmentOptionId);
  // A fulfillment total while the cart ships and has an option to price with (not `none`, not `pending`).
  const ships = session.shippingMethod !== 'none' && session.shippingMethod !== PENDING_METHOD;

  const body: Acp.CheckoutSession = {
    id: session.id,
    protocol: { version: ACP_VERSION },
    capabilities: sessionCapabilities(context.handlers, state.interventions, state.extensions),
    ...(state.buyer ? { buyer: state.buyer } : {}),
    status,
    currency: session.currency.toLowerCase(),
    line_items: lines.map((line, i) => {
      const tax = taxShares[i]!;
      const available = shortOf.get(i);
      return {
        id: `li_${i + 1}`,
        item: { id: itemIds[i]!, name: line.title, unit_amount: minor(line.unitAmount) },
        quantity: line.quantity,
        name: line.title,
        unit_amount: minor(line.unitAmount),
        product_id: line.productId,
        sku: line.variantSku,
        ...(shortOf.has(i) ? { availability_status: 'out_of_stock', ...(available !== null && available !== undefined ? { available_quantity: available } : {}) } : {}),
        tax_exempt: !line.taxable,
        // The RFC's `line_items[].discount` is not a field of the schema's LineItem (additionalProperties: false): the line's discount is its `items_discount` total.
        totals: [
          total('items_base_amount', 'Base amount', line.subtotal),
          ...(line.discount > 0n ? [total('items_discount', 'Discount', line.discount)] : []),
          total('subtotal', 'Subtotal', line.subtotal - line.discount),
          total('tax', 'Tax', tax),
          total('total', 'Total', line.subtotal - line.discount + tax),
        ],
      };
    }),
    ...(state.fulfillment_details ? { fulfillment_details: state.fulfillment_details } : {}),
    fulfillment_options: record.fulfillmentOptions.map((option) => fulfillmentOption(option, session.updatedAt, originalAmounts.get(option.id))),
    ...(chosen ? { selected_fulfillment_options: [{ type: chosen.type, option_id: chosen.id, item_ids: itemIds }] } : {}),
    // items_base_amount − items_discount = subtotal; subtotal − discount + fulfillment + tax = total.
    // Discounts on the items are `items_discount` (the lines' own, summed); a free-shipping promotion
    // is the order-level `discount` (RFC §8.1: allocated to shipping), so `fulfillment` shows the
    // shipping before it — as the chosen option's own totals do — and nothing is counted twice.
    totals: [
      total('items_base_amount', 'Item(s) total', session.subtotal),
      ...(session.discountAmount > 0n ? [total('items_discount', 'Discounts', session.discountAmount)] : []),
      total('subtotal', 'Subtotal', session.subtotal - session.discountAmount),
      ...(ships && freeShipping > 0n ? [total('discount', 'Shipping promotion', freeShipping)] : []),
      ...(ships ? [total('fulfillment', 'Shipping', session.shippingAmount + freeShipping)] : []),
      total('tax', 'Tax', session.taxAmount),
      total('total', 'Total', session.total),
    ],
    messages,
    links: [],
    ...(discountsActive ? { discounts: toAcpDiscounts(session) } : {}),
    ...(status === 'authentication_required' && state.payment_problem?.authentication_metadata
      ? { authentication_metadata: { ...state.payment_problem.authentication_metadata } }
      : {}),
    created_at: session.createdAt.toISOString(),
    updated_at: session.updatedAt.toISOString(),
  };
  if (!session.order) return body;
  const order: Acp.Order = {
    type: 'order',
    id: session.order.id,
    checkout_session_id: session.id,
    permalink_url: context.orderUrl(session.order.id),
    status: ACP_ORDER_STATUS[session.order.status as string] ?? session.order.status, // the orders column holds statuses the session's type does not name yet
  };
  return { ...body, order };
}
