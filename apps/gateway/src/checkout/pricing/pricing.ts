/**
 * Prices a cart: line subtotals, then the discounts (promotions, then the buyer's codes, allocated
 * to lines), then shipping on what the items cost after discount (a free-shipping promotion makes
 * the cheapest option free), then tax on the discounted taxable lines, then the total — every
 * amount in integer minor units of the session's currency, so
 * total = subtotal − discount + shipping + tax holds exactly.
 */
import type { Address } from '../../contract/types.js';
import { applyDiscounts, type CodeUsage, type DiscountOutcome } from '../../discounts/apply-discounts.js';
import type { DiscountCode, MerchantDiscounts } from '../../discounts/discount.js';
import { InvalidRequestError } from '../../kernel/errors.js';
import { pricedOption, type ShippingOptionQuote } from '../../shipping/shipping-options.js';
import type { SessionDiscount, SessionDiscounts } from '../session.js';
import type { ShippingProvider, ShippingResult } from '../../shipping/shipping-provider.js';
import type { TaxProvider } from './tax-provider.js';

/** What pricing needs of a line. */
export interface PricingLine {
  quantity: number;
  /** Unit price in minor units. */
  unitAmount: bigint;
  requiresShipping: boolean;
  taxable: boolean;
  /** What discounts target: the product and its category. */
  productId?: string;
  category?: string | null;
}

/** The discounts a cart is priced with: the merchant's, the buyer's codes, and how often each code was used. */
export interface DiscountContext {
  merchant: MerchantDiscounts;
  /** The buyer's codes, in the order given. */
  codes: readonly string[];
  /** The time of the change (validity windows). */
  now: Date;
  /** Redemptions so far (limits are checked again, atomically, at completion). */
  usage?: ((code: DiscountCode) => CodeUsage) | undefined;
}

export interface PricingContext {
  merchantId?: string;
  /** What `prepare` read for the merchant (its shipping profile). */
  prepared?: unknown;
  /** The shipping option the buyer chose, if any. */
  chosenOptionId?: string | null;
  discounts?: DiscountContext | undefined;
}

/** A cart's totals, in minor units. */
export interface Totals {
  subtotal: bigint;
  /** What the discounts take off the items (lineDiscounts summed). */
  discount: bigint;
  /** Each line's share of `discount`, in cart order. */
  lineDiscounts: bigint[];
  /** The discounts applied (items and shipping) and the codes refused. */
  discounts: SessionDiscounts;
  shippingMethod: ShippingResult['method'];
  shipping: bigint;
  /** The shipping options the cart is offered (none when nothing ships, or no option is found for it). */
  shippingOptions: ShippingOptionQuote[];
  taxRate: number;
  tax: bigint;
  total: bigint;
}

/** The largest amount that can still be shown exactly as a JSON number. */
const MAX_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

export function lineSubtotal(line: Pick<PricingLine, 'quantity' | 'unitAmount'>): bigint {
  return line.unitAmount * BigInt(line.quantity);
}

function sum(values: readonly bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n);
}

function checkAmount(amount: bigint, what: string): void {
  if (typeof amount !== 'bigint' || amount < 0n) throw new TypeError(`${what} must be a non-negative bigint of minor units, got ${String(amount)}`);
}

/** A provider's options, or the one its quote implies (a provider that knows of one method: the flat rate). */
function offered(shipping: ShippingResult): ShippingOptionQuote[] {
  if (shipping.options) return shipping.options;
  if (shipping.method === 'none') return [];
  const title = shipping.method === 'standard' ? 'Standard shipping' : shipping.method;
  const description = shipping.amount === 0n ? 'Flat-rate shipping, free for this cart' : 'Flat-rate shipping';
  return [{ id: shipping.method, title, method: shipping.method, amount: shipping.amount, estimate: null, description }];
}

const NO_DISCOUNTS: DiscountOutcome = { applied: [], rejected: [], lineDiscounts: [], discount: 0n, freeShipping: undefined };

function itemDiscounts(outcome: DiscountOutcome): SessionDiscount[] {
  return outcome.applied.map(({ source, amount, allocation }) =>
    source.kind === 'code'
      ? { kind: 'code', code: source.code, title: source.code, target: 'items', amount, allocation }
      : { kind: 'promotion', promotionId: source.id, title: source.title, target: 'items', amount, allocation },
  );
}

/**
 * A free-shipping promotion makes the destination's cheapest option free (it says so: `promotion`,
 * `originalAmount`); the other options keep their price. The cart is priced with the chosen option
 * while offered, else the cheapest — the free one.
 */
function withFreeShipping(
  options: ShippingOptionQuote[],
  promotion: NonNullable<DiscountOutcome['freeShipping']>,
  chosenOptionId: string | null | undefined,
): { options: ShippingOptionQuote[]; priced: ShippingOptionQuote | undefined; applied: SessionDiscount | undefined } {
  const cheapest = pricedOption(options, null);
  if (!cheapest || cheapest.amount === 0n) return { options, priced: pricedOption(options, chosenOptionId), applied: undefined };
  const free: ShippingOptionQuote = { ...cheapest, amount: 0n, originalAmount: cheapest.amount, promotion };
  const changed = options.map((option) => (option === cheapest ? free : option));
  const priced = pricedOption(changed, chosenOptionId);
  const applied: SessionDiscount | undefined =
    priced === free ? { kind: 'promotion', promotionId: promotion.id, title: promotion.title, target: 'shipping', amount: cheapest.amount, allocation: [] } : undefined;
  return { options: changed, priced, applied };
}

export class Pricing {
  constructor(
    private readonly tax: TaxProvider,
    private readonly shipping: ShippingProvider,
  ) {}

  /** What pricing a merchant's carts needs read before a transaction opens (its shipping profile): pass it to `totals`. */
  async prepare(merchantId: string): Promise<{ merchantId: string; prepared?: unknown }> {
    return this.shipping.prepare ? { merchantId, prepared: await this.shipping.prepare(merchantId) } : { merchantId };
  }

  async totals(currency: string, lines: readonly PricingLine[], address: Address | null, context: PricingContext = {}): Promise<Totals> {
    const { discounts, ...shippingContext } = context;
    const subtotals = lines.map(lineSubtotal);
    const subtotal = sum(subtotals);
    const outcome = discounts
      ? applyDiscounts(discounts.merchant, {
          currency,
          lines: lines.map((line, i) => ({ productId: line.productId ?? '', category: line.category ?? '', subtotal: subtotals[i]! })),
          codes: discounts.codes,
          now: discounts.now,
          usage: discounts.usage,
        })
      : { ...NO_DISCOUNTS, lineDiscounts: lines.map(() => 0n) };
    const taxableSubtotal = sum(subtotals.map((amount, i) => (lines[i]!.taxable ? amount - outcome.lineDiscounts[i]! : 0n)));
    const requiresShipping = lines.some((line) => line.requiresShipping);
    const [shipping, tax] = await Promise.all([
      this.shipping.quote({ currency, address, subtotal: subtotal - outcome.discount, requiresShipping, ...shippingContext }),
      this.tax.quote({ currency, address, taxableSubtotal }),
    ]);
    checkAmount(shipping.amount, 'the shipping provider’s amount');
    checkAmount(tax.amount, 'the tax provider’s amount');
    if (!(tax.rate >= 0 && tax.rate <= 1)) throw new TypeError(`the tax provider’s rate must be in [0, 1], got ${tax.rate}`);
    let shippingOptions = offered(shipping);
    let shippingMethod = shipping.method;
    let shippingAmount = shipping.amount;
    const applied = itemDiscounts(outcome);
    if (outcome.freeShipping && shippingOptions.length > 0) {
      const free = withFreeShipping(shippingOptions, outcome.freeShipping, shippingContext.chosenOptionId);
      shippingOptions = free.options;
      if (free.priced) ({ method: shippingMethod, amount: shippingAmount } = free.priced);
      if (free.applied) applied.unshift(free.applied);
    }
    const total = subtotal - outcome.discount + tax.amount + shippingAmount;
    if (total > MAX_AMOUNT) throw new InvalidRequestError(`The cart's total is too large to be charged (${total} minor units of ${currency})`, 'items');
    return {
      subtotal,
      discount: outcome.discount,
      lineDiscounts: outcome.lineDiscounts,
      discounts: { applied, rejected: outcome.rejected },
      shippingMethod,
      shipping: shippingAmount,
      shippingOptions,
      taxRate: tax.rate,
      tax: tax.amount,
      total,
    };
  }
}
