/**
 * Shipping profiles for operators (the CLI): import a profile document — checked whole, against
 * the currencies the merchant's catalog is priced in when it has one, and written all or nothing —
 * and export it. Checkout reads profiles through the cache (`profiles`), never from here.
 */
import { parseShippingProfile, shippingProfileDocument, type ShippingProfile } from './shipping-profile.js';
import type { MerchantCache } from '../db/merchant-cache.js';
import type { ShippingProfileStore } from './shipping-profile-store.js';

export class ShippingService {
  constructor(
    private readonly store: ShippingProfileStore,
    readonly profiles: MerchantCache<ShippingProfile | null>,
  ) {}

  /** Replaces the merchant's profile with `document`; a bad field is a ShippingProfileError naming its path, nothing written. */
  async import(merchantId: string, document: unknown): Promise<ShippingProfile> {
    const currencies = await this.store.catalogCurrencies(merchantId);
    const profile = parseShippingProfile(document, currencies.size ? currencies : undefined);
    await this.store.save(merchantId, profile);
    this.profiles.forget(merchantId);
    return profile;
  }

  /** The merchant's profile document, or null when it has none (it ships at the flat rate of the settings). */
  async export(merchantId: string): Promise<ReturnType<typeof shippingProfileDocument> | null> {
    const profile = await this.store.find(merchantId);
    return profile ? shippingProfileDocument(profile) : null;
  }

  /** Removes the merchant's profile: it ships at the flat rate of the settings again, on every replica at once. False when it had none. */
  async remove(merchantId: string): Promise<boolean> {
    const removed = await this.store.remove(merchantId);
    if (removed) this.profiles.forget(merchantId);
    return removed;
  }
}
