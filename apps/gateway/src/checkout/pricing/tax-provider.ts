/**
 * The tax port: how much tax a cart owes. The default adapter is a rate table by
 * the shipping address's country and state; a merchant can plug in a real tax
 * service by implementing `TaxProvider`.
 */
import type { Address } from '../../contract/types.js';
import { applyRate } from '../../kernel/money/money.js';

export interface TaxRequest {
  currency: string;
  /** The shipping address, or null while none is set. */
  address: Address | null;
  /** Sum of the taxable lines' subtotals, in minor units. */
  taxableSubtotal: bigint;
}

export interface TaxResult {
  /** The rate applied, as a fraction in [0, 1]. */
  rate: number;
  /** Tax in minor units of the request's currency. */
  amount: bigint;
}

export interface TaxProvider {
  quote(request: TaxRequest): Promise<TaxResult>;
}

/**
 * Rates keyed `COUNTRY-STATE` (e.g. `US-CA`) or `COUNTRY` (e.g. `GB`), both upper-case.
 * The state entry wins over the country entry; a country not in the table is not taxed.
 */
export type TaxRateTable = Readonly<Record<string, number>>;

/** The defaults documented in the contract (TaxSummary). */
export const DEFAULT_TAX_RATES: TaxRateTable = Object.freeze({
  'US-CA': 0.0725,
  'US-NY': 0.04,
  'US-TX': 0.0625,
  US: 0,
  GB: 0.2,
  DE: 0.19,
  FR: 0.2,
  JP: 0.1,
});

/** Tax = rate of the address's jurisdiction × the taxable subtotal, rounded half up once. */
export class RateTableTaxProvider implements TaxProvider {
  private readonly rates: Map<string, number>;

  constructor(table: TaxRateTable = DEFAULT_TAX_RATES) {
    for (const [key, rate] of Object.entries(table)) {
      if (!/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/.test(key)) throw new RangeError(`tax table key ${JSON.stringify(key)} must look like "US" or "US-CA"`);
      if (!(rate >= 0 && rate <= 1)) throw new RangeError(`tax rate of ${key} must be a fraction between 0 and 1, got ${rate}`);
    }
    this.rates = new Map(Object.entries(table));
  }

  /** The rate for an address: state entry, else country entry, else 0; 0 without an address. */
  rateFor(address: Address | null): number {
    const country = address?.country?.trim().toUpperCase();
    if (!country) return 0;
    const state = address?.state?.trim().toUpperCase();
    return (state ? this.rates.get(`${country}-${state}`) : undefined) ?? this.rates.get(country) ?? 0;
  }

  async quote(request: TaxRequest): Promise<TaxResult> {
    const rate = this.rateFor(request.address);
    return { rate, amount: applyRate(request.taxableSubtotal, rate) };
  }
}
