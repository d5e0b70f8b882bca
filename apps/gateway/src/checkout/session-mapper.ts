/** The domain's Session → the contract's CheckoutSession, amounts shown in major units. */
import type { CheckoutSession, LineItem, OrderReference } from '../contract-types.js';
import { normalizeAddress, normalizeCustomer } from './address.js';
import { toMajor } from './pricing/money.js';
import type { Session, SessionLine, SessionOrder } from './session.js';

function toLineItem(row: SessionLine, currency: string): LineItem {
  return {
    product_id: row.productId,
    variant_sku: row.variantSku,
    quantity: row.quantity,
    title: row.title,
    unit_price: toMajor(row.unitAmount, currency),
    currency,
    subtotal: toMajor(row.subtotal, currency),
  };
}

function toOrderReference(row: SessionOrder, sessionId: string): OrderReference {
  return { id: row.id, checkout_session_id: sessionId, status: row.status, created_at: row.createdAt.toISOString() };
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
    customer: row.customer === null ? null : normalizeCustomer(row.customer),
    payment_method: row.paymentMethod,
    shipping: { method: row.shippingMethod as CheckoutSession['shipping']['method'], amount: major(row.shippingAmount), currency },
    tax: { rate: row.taxRate, amount: major(row.taxAmount), currency },
    amounts: {
      subtotal: major(row.subtotal),
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
