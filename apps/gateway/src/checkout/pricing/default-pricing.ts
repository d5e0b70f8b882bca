import { ProfileShippingProvider, type ProfileLookup } from '../../shipping/profile-shipping-provider.js';
import { Pricing } from './pricing.js';
import { DEFAULT_FLAT_RATE, FlatRateShippingProvider, type FlatRate, type FlatRateOptions } from '../../shipping/shipping-provider.js';
import { RateTableTaxProvider, type TaxRateTable } from './tax-provider.js';

export interface PricingOptions {
  /** Tax rates by `COUNTRY` or `COUNTRY-STATE`; the contract's table by default. */
  taxRates?: TaxRateTable;
  /** Flat shipping rate and free-shipping threshold; 5.00 and 50.00 by default (each part that is not given). */
  shipping?: Partial<FlatRate> & Pick<FlatRateOptions, 'byCurrency'>;
}

/** The built-in providers, shipping by each merchant's profile (from `profiles`) and at the flat rate for a merchant without one. */
export function profilePricing(options: PricingOptions, profiles: ProfileLookup): Pricing {
  const flat = new FlatRateShippingProvider({ ...DEFAULT_FLAT_RATE, ...options.shipping });
  return new Pricing(new RateTableTaxProvider(options.taxRates), new ProfileShippingProvider(profiles, flat));
}

/** The built-in providers (rate-table tax, flat-rate shipping), with the contract's defaults unless configured. */
export function defaultPricing(options: PricingOptions = {}): Pricing {
  return new Pricing(new RateTableTaxProvider(options.taxRates), new FlatRateShippingProvider({ ...DEFAULT_FLAT_RATE, ...options.shipping }));
}
