/** The domain's OrderRecord → the contract's Order: lines and amounts exactly as the session shows them. */
import { toCheckoutSession } from '../checkout/session-mapper.js';
import type { Order } from '../contract-types.js';
import type { OrderRecord } from './order-record.js';

export function toOrder({ session, updatedAt }: OrderRecord): Order {
  const shown = toCheckoutSession(session);
  return {
    id: session.order.id,
    status: session.order.status,
    checkout_session_id: session.id,
    currency: shown.currency,
    line_items: shown.line_items,
    shipping: shown.shipping,
    tax: shown.tax,
    amounts: shown.amounts,
    customer: shown.customer,
    shipping_address: shown.shipping_address,
    created_at: session.order.createdAt.toISOString(),
    updated_at: updatedAt.toISOString(),
  };
}
