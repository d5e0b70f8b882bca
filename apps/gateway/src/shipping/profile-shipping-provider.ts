/**
 * Shipping priced by the merchant's profile (shipping-profile.ts), from memory: the profile of a
 * merchant that has one, else the fallback (the flat rate of the settings, unchanged). A cart that
 * ships is offered the methods of its destination's zone and priced with the chosen one, else the
 * cheapest; without a destination, or one no zone covers, it has no option (method `pending`).
 */
import type { ShippingProvider, ShippingRequest, ShippingResult } from './shipping-provider.js';
import { PENDING_METHOD } from './shipping-provider.js';
import { pricedOption, profileOptions } from './shipping-options.js';
import type { ShippingProfile } from './shipping-profile.js';

/** The merchant's profile, or null when it has none (a cache: db/merchant-cache.ts). */
export type ProfileLookup = (merchantId: string) => Promise<ShippingProfile | null>;

export class ProfileShippingProvider implements ShippingProvider {
  constructor(
    private readonly profiles: ProfileLookup,
    private readonly fallback: ShippingProvider,
  ) {}

  prepare(merchantId: string): Promise<ShippingProfile | null> {
    return this.profiles(merchantId);
  }

  async quote(request: ShippingRequest): Promise<ShippingResult> {
    const profile = 'prepared' in request ? (request.prepared as ShippingProfile | null) : request.merchantId === undefined ? null : await this.profiles(request.merchantId);
    if (!profile) return this.fallback.quote(request);
    if (!request.requiresShipping) return { method: 'none', amount: 0n, options: [] };
    const country = request.address?.country;
    const options = country ? profileOptions(profile, { country, region: request.address?.state }, request.currency, request.subtotal) : [];
    const priced = pricedOption(options, request.chosenOptionId);
    return priced ? { method: priced.method, amount: priced.amount, options } : { method: PENDING_METHOD, amount: 0n, options };
  }
}
