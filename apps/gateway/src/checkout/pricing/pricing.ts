/**
 * Prices a cart: line subtotals, then shipping and tax from their providers, then
 * the total — every amount in integer minor units of the session's currency, so
 * total = subtotal + tax + shipping holds exactly.
 */
import type { Address } from '../../contract-types.js';
import { InvalidRequestError } from '../../errors.js';
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

export class Pricing {
  constructor(
    private readonly tax: TaxProvider,
    private readonly shipping: ShippingProvider,
  ) {}

  async totals(currency: string, lines: readonly PricingLine[], address: Address | null): Promise<Totals> {
    const subtotals = lines.map(lineSubtotal);
    const subtotal = sum(subtotals);
    const taxableSubtotal = sum(subtotals.filter((_, i) => lines[i]!.taxable));
    const requiresShipping = lines.some((line) => line.requiresShipping);
    const [shipping, tax] = await Promise.all([
      this.shipping.quote({ currency, address, subtotal, requiresShipping }),
      this.tax.quote({ currency, address, taxableSubtotal }),
    ]);
    checkAmount(shipping.amount, 'the shipping provider’s amount');
    checkAmount(tax.amount, 'the tax provider’s amount');
    if (!(tax.rate >= 0 && tax.rate <= 1)) throw new TypeError(`the tax provider’s rate must be in [0, 1], got ${tax.rate}`);
    const total = subtotal + tax.amount + shipping.amount;
    if (total > MAX_AMOUNT) throw new InvalidRequestError(`The cart's total is too large to be charged (${total} minor units of ${currency})`, 'items');
    return { subtotal, shippingMethod: shipping.method, shipping: shipping.amount, taxRate: tax.rate, tax: tax.amount, total };
  }
}
