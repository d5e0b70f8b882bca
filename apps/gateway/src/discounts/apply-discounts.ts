/**
 * What a cart's discounts come to. Automatic promotions first, then the buyer's codes in the
 * order given, each taking its share of what the ones before it left: 10 % then 20 % leaves 72 %
 * of the price. Every discount is allocated to the lines it applies to (largest remainder, in
 * whole minor units), so tax can be computed after discount and a refund prorated; a line never
 * goes below zero. A code that does not apply is reported with its reason and never blocks the
 * cart. Conditions (minimum subtotal) are read on the cart's subtotal before any discount.
 */
import { categoryMatches, foldCase } from '../search/filter.js';
import { allocate } from '../kernel/money/money.js';
import { codeKey, type DiscountCode, type DiscountTarget, type DiscountValue, type MerchantDiscounts, type Promotion } from './discount.js';

export interface DiscountLine {
  productId: string;
  category: string;
  /** The line's subtotal (unit price × quantity) in minor units. */
  subtotal: bigint;
}

/** Completed orders that used a code: over all buyers, and by this session's buyer (0 without one). */
export interface CodeUsage {
  total: number;
  customer: number;
}

export interface DiscountRequest {
  currency: string;
  lines: readonly DiscountLine[];
  /** The buyer's codes, in the order given. */
  codes: readonly string[];
  now: Date;
  /** The code's redemptions so far (counted at completion); without it, limits are left to completion. */
  usage?: ((code: DiscountCode) => CodeUsage) | undefined;
}

export type RejectionReason =
  | 'unknown'
  | 'not_started'
  | 'expired'
  | 'minimum_not_met'
  | 'limit_reached'
  | 'not_combinable'
  | 'already_applied'
  /** No line of the cart is one it applies to, or it has no amount in the cart's currency. */
  | 'not_applicable';

export interface AppliedDiscount {
  /** The code as the merchant wrote it, or the promotion's id. */
  source: { kind: 'code'; code: string } | { kind: 'promotion'; id: string; title: string };
  amount: bigint;
  /** Its share of each line of the cart (0 for lines it does not apply to). */
  allocation: bigint[];
}

export interface DiscountOutcome {
  applied: AppliedDiscount[];
  rejected: { code: string; reason: RejectionReason }[];
  /** Each line's discount, all sources together (≤ its subtotal). */
  lineDiscounts: bigint[];
  /** The sum of lineDiscounts. */
  discount: bigint;
  /** The promotion that makes shipping free, when one does. */
  freeShipping: { id: string; title: string } | undefined;
}

const within = (now: Date, from: Date | undefined, to: Date | undefined): 'not_started' | 'expired' | undefined =>
  from && now < from ? 'not_started' : to && now >= to ? 'expired' : undefined;

function targets(target: DiscountTarget, line: DiscountLine): boolean {
  switch (target.kind) {
    case 'cart':
      return true;
    case 'products':
      return target.productIds.includes(line.productId);
    case 'categories':
      return target.categories.some((category) => categoryMatches(foldCase(line.category), foldCase(category)));
  }
}

const meetsMinimum = (minimum: Readonly<Record<string, bigint>> | undefined, currency: string, subtotal: bigint): boolean =>
  minimum === undefined || minimum[currency] === undefined || subtotal >= minimum[currency]!;

/** The value's amount over `base` (what the target's lines have left): a rate rounded half up, or the fixed amount, at most the base. */
function amountOf(value: DiscountValue, currency: string, base: bigint): bigint | undefined {
  if (value.kind === 'percentage') return (2n * base * BigInt(value.basisPoints) + 10_000n) / 20_000n;
  const fixed = value.amounts[currency];
  if (fixed === undefined) return undefined;
  return fixed < base ? fixed : base;
}

export function applyDiscounts(discounts: MerchantDiscounts, request: DiscountRequest): DiscountOutcome {
  const { currency, lines, now } = request;
  const subtotal = lines.reduce((sum, line) => sum + line.subtotal, 0n);
  const left = lines.map((line) => line.subtotal);
  const applied: AppliedDiscount[] = [];
  const rejected: DiscountOutcome['rejected'] = [];

  /** Takes `value` off the target's lines from what is left of them; undefined when nothing of the cart is its. */
  const take = (value: DiscountValue, target: DiscountTarget): bigint[] | undefined => {
    const weights = lines.map((line, i) => (targets(target, line) ? left[i]! : 0n));
    const base = weights.reduce((sum, w) => sum + w, 0n);
    if (!lines.some((line) => targets(target, line))) return undefined;
    const amount = amountOf(value, currency, base);
    if (amount === undefined) return undefined;
    const allocation = allocate(amount, weights);
    allocation.forEach((part, i) => (left[i]! -= part));
    return allocation;
  };

  let freeShipping: DiscountOutcome['freeShipping'];
  for (const promotion of discounts.promotions) {
    if (within(now, promotion.startsAt, promotion.endsAt) || !meetsMinimum(promotion.minimumSubtotal, currency, subtotal)) continue;
    if (promotion.effect.kind === 'free_shipping') {
      if (!freeShipping && lines.some((line) => targets(promotion.target, line))) freeShipping = { id: promotion.id, title: promotion.title };
      continue;
    }
    const allocation = take(promotion.effect, promotion.target);
    if (allocation) applied.push(promotionApplied(promotion, allocation));
  }

  const byKey = new Map(discounts.codes.map((code) => [codeKey(code.code), code]));
  const seen = new Set<string>();
  let alone: string | undefined;
  let codesApplied = 0;
  for (const entered of request.codes) {
    const key = codeKey(entered);
    const code = byKey.get(key);
    const reason = ((): RejectionReason | undefined => {
      if (!code) return 'unknown';
      if (seen.has(key)) return 'already_applied';
      const window = within(now, code.startsAt, code.endsAt);
      if (window) return window;
      if (!meetsMinimum(code.minimumSubtotal, currency, subtotal)) return 'minimum_not_met';
      const usage = request.usage?.(code);
      if (usage && ((code.usageLimit !== undefined && usage.total >= code.usageLimit) || (code.perCustomerLimit !== undefined && usage.customer >= code.perCustomerLimit))) {
        return 'limit_reached';
      }
      if (alone !== undefined || (!code.combinable && codesApplied > 0)) return 'not_combinable';
      return undefined;
    })();
    seen.add(key);
    if (reason) {
      rejected.push({ code: entered, reason });
      continue;
    }
    const allocation = take(code!.value, code!.target);
    if (!allocation) {
      rejected.push({ code: entered, reason: 'not_applicable' });
      continue;
    }
    applied.push({ source: { kind: 'code', code: code!.code }, amount: sum(allocation), allocation });
    codesApplied++;
    if (!code!.combinable) alone = key;
  }

  const lineDiscounts = lines.map((line, i) => line.subtotal - left[i]!);
  return { applied, rejected, lineDiscounts, discount: sum(lineDiscounts), freeShipping };
}

function promotionApplied(promotion: Promotion, allocation: bigint[]): AppliedDiscount {
  return { source: { kind: 'promotion', id: promotion.id, title: promotion.title }, amount: sum(allocation), allocation };
}

const sum = (values: readonly bigint[]): bigint => values.reduce((total, value) => total + value, 0n);
