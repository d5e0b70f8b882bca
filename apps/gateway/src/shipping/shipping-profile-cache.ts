/**
 * Every merchant's shipping profile in memory, so that pricing a cart reads no table: loaded on a
 * merchant's first cart, forgotten when NOTIFY shipping_profiles_changed says it changed (any
 * process's import; this process's import forgets it at once too). While it does not hear changes
 * (before `listen`, and while its connection is down) it holds nothing and every lookup reads the
 * database — correct, one read per priced cart.
 *
 *   const cache = new ShippingProfileCache((merchantId) => store.find(merchantId));
 *   await cache.listen(db); const profile = await cache.get('shop'); // ShippingProfile | null
 */
import type { Database } from '../db/database.js';
import type { Subscription } from '../db/pg-listener.js';
import type { ShippingProfile } from './shipping-profile.js';
import { SHIPPING_PROFILES_CHANNEL } from './shipping-profile-store.js';

export class ShippingProfileCache {
  private readonly entries = new Map<string, Promise<ShippingProfile | null>>();
  private listening = false;
  private subscription: Subscription | undefined;

  constructor(private readonly load: (merchantId: string) => Promise<ShippingProfile | null>) {}

  /** The merchant's profile, null when it has none. */
  get(merchantId: string): Promise<ShippingProfile | null> {
    if (!this.listening) return this.load(merchantId);
    let entry = this.entries.get(merchantId);
    if (!entry) {
      const loading = this.load(merchantId);
      this.entries.set(merchantId, loading);
      loading.catch(() => this.entries.get(merchantId) === loading && this.entries.delete(merchantId));
      entry = loading;
    }
    return entry;
  }

  /** The merchant's profile changed (or every merchant's, when none is named): read it again next time. */
  forget(merchantId?: string): void {
    if (merchantId === undefined) this.entries.clear();
    else this.entries.delete(merchantId);
  }

  /** Starts holding profiles while changes to them are heard. */
  async listen(db: Pick<Database, 'listen'>): Promise<void> {
    if (this.subscription) return;
    this.subscription = await db.listen(SHIPPING_PROFILES_CHANNEL, {
      onNotify: (merchantId) => this.forget(merchantId || undefined),
      onLost: () => {
        this.listening = false;
        this.forget();
      },
      onRestored: () => {
        this.forget();
        this.listening = true;
      },
    });
    this.listening = true;
  }

  async close(): Promise<void> {
    this.listening = false;
    this.forget();
    await this.subscription?.close();
    this.subscription = undefined;
  }
}
