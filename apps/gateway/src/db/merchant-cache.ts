/**
 * What a merchant's carts are priced with (its shipping profile, its discounts) in memory, so that
 * pricing a cart reads no table: loaded on a merchant's first cart, forgotten when a NOTIFY on the
 * cache's channel names the merchant (any process's change; a change by this process is heard too).
 * While it does not hear changes (before `listen`, and while its connection is down) it holds
 * nothing and every lookup reads the database — correct, one read per priced cart.
 *
 *   const profiles = new MerchantCache('shipping_profiles_changed', (merchantId) => store.find(merchantId));
 *   await profiles.listen(db); const profile = await profiles.get('shop');
 */
import type { Database } from './database.js';
import type { Subscription } from './pg-listener.js';

export class MerchantCache<T> {
  private readonly entries = new Map<string, Promise<T>>();
  private listening = false;
  private subscription: Subscription | undefined;

  constructor(
    /** The channel whose NOTIFY payload is the merchant id that changed (empty: every merchant). */
    private readonly channel: string,
    private readonly load: (merchantId: string) => Promise<T>,
  ) {}

  get(merchantId: string): Promise<T> {
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

  /** The merchant's data changed (or every merchant's, when none is named): read it again next time. */
  forget(merchantId?: string): void {
    if (merchantId === undefined) this.entries.clear();
    else this.entries.delete(merchantId);
  }

  /** Starts holding values while changes to them are heard. */
  async listen(db: Pick<Database, 'listen'>): Promise<void> {
    if (this.subscription) return;
    this.subscription = await db.listen(this.channel, {
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
