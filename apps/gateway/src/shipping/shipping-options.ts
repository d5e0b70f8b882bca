/**
 * The shipping options a destination is offered by a profile: the methods of the one zone that
 * covers it (a region's zone before its country's), priced in the cart's currency — free from the
 * method's threshold — and the rule that picks the option a cart is priced with.
 */
import type { DeliveryEstimate, ShippingProfile, ShippingZone } from './shipping-profile.js';

/** An option as a cart is offered it: amounts in minor units of the cart's currency. */
export interface ShippingOptionQuote {
  /** What a buyer chooses (the method's id; a destination has one zone, so ids are unique). */
  id: string;
  title: string;
  /** The method: `standard` for the flat rate, a profile's method id otherwise. */
  method: string;
  amount: bigint;
  estimate: DeliveryEstimate | null;
  /** A line that says what the option is (the flat rate: `Flat-rate shipping`). */
  description?: string;
  /** The promotion that made it free, and what it cost before (a free-shipping promotion). */
  promotion?: { id: string; title: string };
  originalAmount?: bigint;
}

export interface Destination {
  /** ISO 3166-1 alpha-2, any case. */
  country: string;
  /** The address's state or region (`CA` or `US-CA`), when it has one. */
  region?: string | undefined;
}

/** The zone of a destination: the one naming its region, else the one naming its country; none when uncovered. */
export function zoneFor(profile: ShippingProfile, destination: Destination): ShippingZone | undefined {
  const country = destination.country.toUpperCase();
  const state = destination.region?.trim().toUpperCase();
  if (state) {
    const region = state.startsWith(`${country}-`) ? state : `${country}-${state}`;
    const byRegion = profile.zones.find((zone) => zone.regions.includes(region));
    if (byRegion) return byRegion;
  }
  return profile.zones.find((zone) => zone.countries.includes(country));
}

/**
 * The options for a destination in `currency`, in the profile's order: a method without a price in
 * the currency is not offered; one whose free-from threshold the subtotal reaches costs 0.
 */
export function profileOptions(profile: ShippingProfile, destination: Destination, currency: string, subtotal: bigint): ShippingOptionQuote[] {
  const zone = zoneFor(profile, destination);
  if (!zone) return [];
  return zone.methods.flatMap((method) => {
    const price = method.prices[currency];
    if (price === undefined) return [];
    const freeFrom = method.freeFrom[currency];
    const free = freeFrom !== undefined && subtotal >= BigInt(freeFrom);
    return [{ id: method.id, title: method.title, method: method.id, amount: free ? 0n : BigInt(price), estimate: method.estimate }];
  });
}

/** The option a cart is priced with: the chosen one while it is offered, else the cheapest (the first of equals). */
export function pricedOption<T extends { id: string; amount: bigint }>(options: readonly T[], chosenId: string | null | undefined): T | undefined {
  const chosen = chosenId ? options.find((option) => option.id === chosenId) : undefined;
  return chosen ?? options.reduce<T | undefined>((best, option) => (best === undefined || option.amount < best.amount ? option : best), undefined);
}
