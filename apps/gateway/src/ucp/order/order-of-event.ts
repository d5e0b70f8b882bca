/**
 * The `Order` an `order.*` event reports. Order changes carry the whole `Order`; `order.created`
 * carries the completed checkout session with its order reference — at placement the order is
 * exactly that session's lines and amounts, nothing fulfilled, refunded or canceled yet.
 */
import type { Order } from '../../contract/types.js';
import { isSessionWithOrder } from '../../webhooks/acp/acp-order.js';
import { isOrder } from '../../webhooks/acp/acp-order-of.js';

export function orderOfEvent(object: unknown): Order | null {
  if (isOrder(object)) return object;
  if (!isSessionWithOrder(object)) return null;
  const { order, ...session } = object;
  return {
    id: order.id,
    status: order.status,
    checkout_session_id: session.id,
    currency: session.currency,
    line_items: session.line_items,
    shipping: session.shipping,
    tax: session.tax,
    amounts: session.amounts,
    discounts: session.discounts,
    customer_id: session.customer_id,
    customer: session.customer,
    shipping_address: session.shipping_address,
    fulfillments: [],
    refunds: [],
    refunded_amount: 0,
    payment: null, // a placement event carries no payment: it is read with the order
    canceled_at: null,
    created_at: order.created_at,
    updated_at: order.created_at,
  };
}

