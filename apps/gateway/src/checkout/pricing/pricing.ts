/**
 * Prices a cart: line subtotals, then shipping and tax from their providers, then
 * the total — every amount in integer minor units of the session's currency, so
 * total = subtotal + tax + shipping holds exactly.
 */
import type { Address } from '../../contract-types.js';
import { InvalidRequestError } from '../../errors.js';
import type { ShippingOptionQuote } from '../../shipping/shipping-options.js';
import type { ShippingProvider, ShippingResult } from './shipping-provider.js';
import type { TaxProvider } from './tax-provider.js';

/** What pricing needs of a line. */
export interface PricingLine {
  quantity: number;
  /** Unit price in minor units. */
  unitAmount: bigint;
  requiresShipping: boolean;
  taxable: boolean;
}

/** A cart's totals, in minor units. */
export interface Totals {
  subtotal: bigint;
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

export class Pricing {
  constructor(
    private readonly tax: TaxProvider,
    private readonly shipping: ShippingProvider,
  ) {}

  /** What pricing a merchant's carts needs read before a transaction opens (its shipping profile): pass it to `totals`. */
  async prepare(merchantId: string): Promise<{ merchantId: string; prepared?: unknown }> {
    return this.shipping.prepare ? { merchantId, prepared: await this.shipping.prepare(merchantId) } : { merchantId };
  }

  /** Who prices it and the option chosen, when known (`prepare`'s answer, the buyer's choice). */
  async totals(currency: string, lines: readonly PricingLine[], address: Address | null, shippingContext: { merchantId?: string; prepared?: unknown; chosenOptionId?: string | null } = {}): Promise<Totals> {
    const subtotals = lines.map(lineSubtotal);
    const subtotal = sum(subtotals);
    const taxableSubtotal = sum(subtotals.filter((_, i) => lines[i]!.taxable));
    const requiresShipping = lines.some((line) => line.requiresShipping);
    const [shipping, tax] = await Promise.all([
      this.shipping.quote({ currency, address, subtotal, requiresShipping, ...shippingContext }),
      this.tax.quote({ currency, address, taxableSubtotal }),
    ]);
    checkAmount(shipping.amount, 'the shipping provider’s amount');
    checkAmount(tax.amount, 'the tax provider’s amount');
    if (!(tax.rate >= 0 && tax.rate <= 1)) throw new TypeError(`the tax provider’s rate must be in [0, 1], got ${tax.rate}`);
    const total = subtotal + tax.amount + shipping.amount;
    if (total > MAX_AMOUNT) throw new InvalidRequestError(`The cart's total is too large to be charged (${total} minor units of ${currency})`, 'items');
    return { subtotal, shippingMethod: shipping.method, shipping: shipping.amount, shippingOptions: offered(shipping), taxRate: tax.rate, tax: tax.amount, total };
  }
}
