/**
 * A merchant's discounts as the domain holds them: codes a buyer enters, and promotions that
 * apply by themselves. Every amount is in integer minor units of its currency (keys upper-case
 * ISO 4217); a percentage is held in basis points (10 % = 1000), so no arithmetic runs on floats.
 */

/** What a discount applies to: the whole cart, or the lines of listed products or categories. */
export type DiscountTarget =
  | { kind: 'cart' }
  | { kind: 'products'; productIds: readonly string[] }
  /** A line's category matches as a filter's does (search/filter.ts): case-insensitive substring of its path. */
  | { kind: 'categories'; categories: readonly string[] };

/** Minor units per currency (`{USD: 500n}`). */
export type Amounts = Readonly<Record<string, bigint>>;

export type DiscountValue =
  | { kind: 'percentage'; basisPoints: number }
  /** A fixed amount off, per currency: a cart in a currency the code has no amount for is not eligible. */
  | { kind: 'fixed'; amounts: Amounts };

export interface DiscountCode {
  /** As the merchant wrote it; matched case-insensitively (normalized with codeKey). */
  code: string;
  value: DiscountValue;
  target: DiscountTarget;
  /** The least subtotal (of the whole cart, before discounts) per currency the code needs. */
  minimumSubtotal?: Amounts | undefined;
  startsAt?: Date | undefined;
  endsAt?: Date | undefined;
  /** Completed orders that may use the code, over all buyers. */
  usageLimit?: number | undefined;
  /** Completed orders per buyer (by email). */
  perCustomerLimit?: number | undefined;
  /** False: applies only alone (refused beside another code, and another beside it). Default true. */
  combinable: boolean;
}

export type PromotionEffect =
  /** Shipping costs nothing. */
  | { kind: 'free_shipping' }
  /** A percentage off the target's lines. */
  | { kind: 'percentage'; basisPoints: number };

/** A promotion needs no code: it applies whenever the cart meets its condition. */
export interface Promotion {
  id: string;
  title: string;
  effect: PromotionEffect;
  /** For free shipping: the cart must hold a line of the target (cart: any line). For a percentage: the lines it takes off. */
  target: DiscountTarget;
  minimumSubtotal?: Amounts | undefined;
  startsAt?: Date | undefined;
  endsAt?: Date | undefined;
}

export interface MerchantDiscounts {
  codes: readonly DiscountCode[];
  promotions: readonly Promotion[];
}

/** How a code is looked up: trimmed, upper-case (codes are case-insensitive, as buyers type them). */
export function codeKey(code: string): string {
  return code.trim().toUpperCase();
}
