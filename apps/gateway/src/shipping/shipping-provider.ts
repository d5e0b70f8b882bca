/**
 * The shipping port: which method a cart ships with and what it costs. The
 * default adapter is one flat rate, free from a subtotal threshold; a merchant
 * can plug in a real carrier service by implementing `ShippingProvider`.
 */
import type { Address } from '../contract/types.js';
import type { ShippingOptionQuote } from './shipping-options.js';
import { toMinor } from '../kernel/money/money.js';

/** The method of a cart that ships but has no option to be priced with yet: no destination, or none offered for it. */
export const PENDING_METHOD = 'pending';

export interface ShippingRequest {
  currency: string;
  address: Address | null;
  /** Sum of all lines' subtotals, in minor units. */
  subtotal: bigint;
  /** Whether any line requires shipping. */
  requiresShipping: boolean;
  /** Whose cart it is (a provider may price by merchant: shipping profiles). */
  merchantId?: string;
  /** The option the buyer chose, if any: priced while it is offered, else the cheapest is. */
  chosenOptionId?: string | null;
  /** What `prepare` read for the merchant, before a transaction opened (on PGlite nothing else can read while one is open). */
  prepared?: unknown;
}

export interface ShippingResult {
  /** `none` (nothing ships), `pending` (no option to price with), else the priced option's method. */
  method: string;
  /** Cost in minor units of the request's currency. */
  amount: bigint;
  /** Every option the cart is offered (default: the method at the amount, none when nothing ships). */
  options?: ShippingOptionQuote[];
}

export interface ShippingProvider {
  quote(request: ShippingRequest): Promise<ShippingResult>;
  /** Reads what quoting the merchant's carts needs (a profile), to be handed back as `prepared`. */
  prepare?(merchantId: string): Promise<unknown>;
}

/** Flat-rate settings, in major units of the session's currency. */
export interface FlatRate {
  rate: number;
  /** Shipping is free when the subtotal is at least this much; null: never free. */
  freeFrom: number | null;
}

export interface FlatRateOptions extends FlatRate {
  /** Other settings for some currencies (e.g. `{ JPY: { rate: 800, freeFrom: 8000 } }`). */
  byCurrency?: Readonly<Record<string, FlatRate>>;
}

/** The defaults documented in the contract (ShippingQuote): 5.00, free from 50.00, in any currency. */
export const DEFAULT_FLAT_RATE: FlatRateOptions = Object.freeze({ rate: 5, freeFrom: 50 });

/** `standard` at a flat rate (free from a threshold) when anything ships, else `none` for 0. */
export class FlatRateShippingProvider implements ShippingProvider {
  constructor(private readonly options: FlatRateOptions = DEFAULT_FLAT_RATE) {
    for (const [name, setting] of Object.entries({ default: options, ...options.byCurrency })) {
      if (!(setting.rate >= 0)) throw new RangeError(`flat shipping rate (${name}) must be ≥ 0, got ${setting.rate}`);
      if (setting.freeFrom !== null && !(setting.freeFrom >= 0)) {
        throw new RangeError(`free-shipping threshold (${name}) must be ≥ 0 or null, got ${setting.freeFrom}`);
      }
    }
  }

  async quote(request: ShippingRequest): Promise<ShippingResult> {
    if (!request.requiresShipping) return { method: 'none', amount: 0n };
    const setting = this.options.byCurrency?.[request.currency] ?? this.options;
    const free = setting.freeFrom !== null && request.subtotal >= toMinor(setting.freeFrom, request.currency);
    return { method: 'standard', amount: free ? 0n : toMinor(setting.rate, request.currency) };
  }
}
