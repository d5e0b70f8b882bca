/**
 * A checkout session as the domain knows it: written by hand, not Prisma's generated row, so that
 * what checkout, payment, pricing and the protocol mappers (acp/wire) work with is ours to shape.
 * Amounts are integer minor units of `currency`; lines are in cart order.
 */
import type { Address, Customer } from '../contract-types.js';
import type { ShippingOptionQuote } from '../shipping/shipping-options.js';

export type SessionStatus = 'open' | 'completed' | 'canceled';
export type OrderStatus = 'created' | 'fulfilled' | 'canceled' | 'refunded';

/** What an agent protocol keeps with a session beyond the domain's fields (opaque to the domain). */
export type ProtocolState = Record<string, unknown>;

export interface SessionLine {
  position: number;
  productId: string;
  variantSku: string;
  quantity: number;
  title: string;
  unitAmount: bigint;
  subtotal: bigint;
  requiresShipping: boolean;
  taxable: boolean;
}

/** The order a completed session became. */
export interface SessionOrder {
  id: string;
  status: OrderStatus;
  currency: string;
  total: bigint;
  createdAt: Date;
}

export interface Session {
  id: string;
  merchantId: string;
  status: SessionStatus;
  currency: string;
  shippingAddress: Address | null;
  customer: Customer | null;
  paymentMethod: string;
  clientSecret: string;
  /** `none` (nothing to ship), `pending` (no option to price with), else the priced option's method (`standard`). */
  shippingMethod: string;
  shippingAmount: bigint;
  taxRate: number;
  taxAmount: bigint;
  subtotal: bigint;
  total: bigint;
  /** The fulfillment option the buyer chose (fulfillment-options.ts); null: none chosen. */
  fulfillmentOptionId: string | null;
  /** The shipping options offered at the last change; null for a session written before they were kept. */
  shippingOptions: ShippingOptionQuote[] | null;
  protocolState: ProtocolState | null;
  createdAt: Date;
  updatedAt: Date;
  lineItems: SessionLine[];
  order: SessionOrder | null;
}
