/** The domain's Session → the contract's CheckoutSession, amounts shown in major units. */
import type { CheckoutDiscounts, CheckoutSession, LineItem, OrderReference } from '../contract/types.js';
import type { RejectionReason } from '../discounts/apply-discounts.js';
import { normalizeAddress, normalizeCustomer } from './address.js';
import { pricedShippingOption, shippingOptionsOf } from './fulfillment-options.js';
import { unavailableDestination } from './session-needs.js';
import { toMajor } from '../kernel/money/money.js';
import type { Session, SessionDiscounts, SessionLine, SessionOrder } from './session.js';

function toLineItem(row: SessionLine, currency: string): LineItem {
  return {
    product_id: row.productId,
    variant_sku: row.variantSku,
    quantity: row.quantity,
    title: row.title,
    unit_price: toMajor(row.unitAmount, currency),
    currency,
    subtotal: toMajor(row.subtotal, currency),
    discount: toMajor(row.discount, currency),
  };
}

/** What a buyer is told about a code that does not apply. */
export const REJECTION_MESSAGES: Record<RejectionReason, string> = {
  unknown: 'This code does not exist.',
  not_started: 'This code is not valid yet.',
  expired: 'This code expired.',
  minimum_not_met: 'The cart does not reach the minimum this code needs.',
  limit_reached: 'This code has been used as many times as it may be.',
  not_combinable: 'This code cannot be combined with the other codes of the cart.',
  already_applied: 'This code is already applied.',
  not_applicable: 'This code does not apply to anything in the cart.',
};

/** The session's discounts in the contract's shape: lines 1-based in cart order, amounts in major units. */
export function toCheckoutDiscounts(discounts: SessionDiscounts, lines: readonly SessionLine[], currency: string): CheckoutDiscounts {
  const lineOf = new Map([...lines].sort((a, b) => a.position - b.position).map((line, i) => [line.position, i + 1]));
  return {
    applied: discounts.applied.map((discount) => ({
      type: discount.kind,
      ...(discount.code !== undefined ? { code: discount.code } : {}),
      ...(discount.promotionId !== undefined ? { promotion_id: discount.promotionId } : {}),
      title: discount.title,
      applies_to: discount.target,
      amount: toMajor(discount.amount, currency),
      currency,
      allocations: discount.allocation.flatMap((amount, position) => (amount > 0n ? [{ line: lineOf.get(position) ?? position + 1, amount: toMajor(amount, currency) }] : [])),
    })),
    rejected: discounts.rejected.map(({ code, reason }) => ({ code, reason, message: REJECTION_MESSAGES[reason] })),
  };
}

function toOrderReference(row: SessionOrder, sessionId: string): OrderReference {
  return { id: row.id, checkout_session_id: sessionId, status: row.status, created_at: row.createdAt.toISOString() };
}

/** The cart's shipping: the option it is priced with (chosen, else the cheapest), every option offered, and why none is. */
function shippingFields(row: Session): Pick<CheckoutSession, 'shipping' | 'shipping_options' | 'shipping_option_id' | 'shipping_option_chosen' | 'shipping_unavailable'> {
  const currency = row.currency;
  const quoted = { shippingMethod: row.shippingMethod, shipping: row.shippingAmount, shippingOptions: row.shippingOptions };
  const priced = pricedShippingOption(quoted, row.fulfillmentOptionId);
  const unavailable = row.status === 'open' ? unavailableDestination(row) : undefined;
  const where = unavailable && (unavailable.region ? `${unavailable.country}-${unavailable.region}` : unavailable.country);
  return {
    shipping: { method: row.shippingMethod, amount: toMajor(row.shippingAmount, currency), currency },
    shipping_option_id: priced?.id ?? null,
    shipping_option_chosen: priced !== undefined && priced.id === row.fulfillmentOptionId,
    shipping_options: row.shippingMethod === 'none' ? [] : shippingOptionsOf(quoted).map((option) => ({
      id: option.id,
      title: option.title,
      method: option.method,
      amount: toMajor(option.amount, currency),
      original_amount: toMajor(option.originalAmount ?? option.amount, currency),
      promotion: option.promotion ? { id: option.promotion.id, title: option.promotion.title } : null,
      currency,
      delivery_estimate: option.estimate ? { min_business_days: option.estimate.minBusinessDays, max_business_days: option.estimate.maxBusinessDays } : null,
    })),
    shipping_unavailable: unavailable
      ? { code: 'shipping_unavailable', country: unavailable.country, region: unavailable.region, message: `The merchant does not ship to ${where}; use another shipping address` }
      : null,
  };
}

export function toCheckoutSession(row: Session): CheckoutSession {
  const currency = row.currency;
  const major = (minor: bigint) => toMajor(minor, currency);
  return {
    id: row.id,
    status: row.status,
    currency,
    line_items: [...row.lineItems].sort((a, b) => a.position - b.position).map((line) => toLineItem(line, currency)),
    shipping_address: row.shippingAddress === null ? null : normalizeAddress(row.shippingAddress),
    shipping_address_id: row.shippingAddressId,
    saved_addresses: (row.savedAddresses ?? []).map((saved) => ({ id: saved.id, address: normalizeAddress(saved.address) })),
    customer: row.customer === null ? null : normalizeCustomer(row.customer),
    customer_id: row.customerId,
    payment_method: row.paymentMethod,
    ...shippingFields(row),
    discount_codes: [...row.discountCodes],
    discounts: toCheckoutDiscounts(row.discounts, row.lineItems, currency),
    tax: { rate: row.taxRate, amount: major(row.taxAmount), currency },
    amounts: {
      subtotal: major(row.subtotal),
      discount: major(row.discountAmount),
      tax: major(row.taxAmount),
      shipping: major(row.shippingAmount),
      total: major(row.total),
      currency,
    },
    client_secret: row.clientSecret,
    created_at: row.createdAt.toISOString(),
    order: row.order ? toOrderReference(row.order, row.id) : null,
  };
}
