/**
 * A checkout session as the domain knows it: written by hand, not Prisma's generated row, so that
 * what checkout, payment, pricing and the protocol mappers (acp/wire) work with is ours to shape.
 * Amounts are integer minor units of `currency`; lines are in cart order.
 */
import type { Address, Customer } from '../contract/types.js';
import type { RejectionReason } from '../discounts/apply-discounts.js';
import type { ShippingOptionQuote } from '../shipping/shipping-options.js';
import type { SavedAddress } from './session-customer.js';

export type SessionStatus = 'open' | 'completed' | 'canceled';
export type OrderStatus = 'created' | 'partially_fulfilled' | 'fulfilled' | 'delivered' | 'canceled' | 'refunded';

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
  /** The product's category when priced (what category discounts match); null when it had none. */
  category: string | null;
  /** The line's share of the cart's discounts (≤ subtotal). */
  discount: bigint;
}

/** A discount the cart was given: a code the buyer entered, or a promotion that applied by itself. */
export interface SessionDiscount {
  kind: 'code' | 'promotion';
  /** The code as the merchant wrote it (kind `code`). */
  code?: string;
  /** The promotion's id (kind `promotion`). */
  promotionId?: string;
  /** What the buyer is shown: the code, or the promotion's title. */
  title: string;
  /** What it takes off: the items (allocated to lines), or the shipping (the option becomes free). */
  target: 'items' | 'shipping';
  amount: bigint;
  /** Its share of each line, by line position (items only; empty for shipping). */
  allocation: bigint[];
}

export interface SessionDiscounts {
  applied: SessionDiscount[];
  /** The codes asked for that did not apply, with why (a code that does not apply never blocks the cart). */
  rejected: { code: string; reason: RejectionReason }[];
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
  /** The saved address the shipping address is; null for one not saved (yet). */
  shippingAddressId: string | null;
  /** The buyer's saved addresses offered at the last change; null when none. */
  savedAddresses: SavedAddress[] | null;
  customer: Customer | null;
  /** The merchant's customer the buyer is (by email), when known. */
  customerId: string | null;
  paymentMethod: string;
  clientSecret: string;
  /** The payment the PSP holds for the session (PAYMENT_PROVIDER=stripe: its PaymentIntent), opened with it; null or absent: none. */
  paymentReference?: string | null;
  /** `none` (nothing to ship), `pending` (no option to price with), else the priced option's method (`standard`). */
  shippingMethod: string;
  shippingAmount: bigint;
  taxRate: number;
  taxAmount: bigint;
  subtotal: bigint;
  /** What the discounts took off the items (the lines' `discount` summed). */
  discountAmount: bigint;
  /** total = subtotal − discountAmount + shippingAmount + taxAmount. */
  total: bigint;
  /** The discount codes the buyer asked for, in the order given. */
  discountCodes: string[];
  discounts: SessionDiscounts;
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
