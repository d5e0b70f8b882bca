/**
 * What a merchant's carts are priced with (its shipping profile, its discounts, its payment
 * account) in memory, so that pricing a cart reads no table: a NotifiedCache (notified-cache.ts)
 * keyed by merchant id — loaded on a merchant's first cart, forgotten when a NOTIFY on the cache's
 * channel names the merchant (any process's change; a change by this process is heard too). While
 * it does not hear changes (before `listen`, and while its connection is down) it holds nothing
 * and every lookup reads the database — correct, one read per priced cart.
 *
 *   const profiles = new MerchantCache('shipping_profiles_changed', (merchantId) => store.find(merchantId));
 *   await profiles.listen(db); const profile = await profiles.get('shop');
 */
import { NotifiedCache } from './notified-cache.js';

export class MerchantCache<T> extends NotifiedCache<T> {
  constructor(
    /** The channel whose NOTIFY payload is the merchant id that changed (empty: every merchant). */
    channel: string,
    load: (merchantId: string) => Promise<T>,
  ) {
    super({ channel, load });
  }
}
