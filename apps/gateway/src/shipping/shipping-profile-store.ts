/**
 * The only code that reads and writes shipping profiles (`shipping_profiles`: one validated
 * document per merchant). A write announces itself with NOTIFY shipping_profiles_changed in its
 * transaction, so that every gateway forgets its copy when it commits.
 */
import type { Database } from '../db/database.js';
import { sql } from '../db/statement.js';
import { ensureMerchant } from '../merchants/merchant-store.js';
import { parseShippingProfile, shippingProfileDocument, type ShippingProfile } from './shipping-profile.js';

export const SHIPPING_PROFILES_CHANNEL = 'shipping_profiles_changed';

export class ShippingProfileStore {
  constructor(
    private readonly db: Pick<Database, 'sql' | 'transaction'>,
    /** The catalog's answer (CatalogService.currencies), handed in: shipping reads no catalog table and may not import catalog/. */
    private readonly soldCurrencies: (merchantId: string) => Promise<ReadonlySet<string>>,
  ) {}

  async find(merchantId: string): Promise<ShippingProfile | null> {
    const [row] = await this.db.sql.query<{ profile: string }>(sql`SELECT profile::text AS profile FROM shipping_profiles WHERE merchant_id = ${merchantId}`);
    return row ? parseShippingProfile(JSON.parse(row.profile), undefined, 'minor') : null;
  }

  /** The currencies the merchant's catalog is priced in (its products and variants), as the catalog answers. */
  async catalogCurrencies(merchantId: string): Promise<ReadonlySet<string>> {
    return this.soldCurrencies(merchantId);
  }

  /** Replaces the merchant's profile (the merchant is created if new), all or nothing. */
  async save(merchantId: string, profile: ShippingProfile): Promise<void> {
    const document = JSON.stringify(shippingProfileDocument(profile, 'minor')); // stored in minor units, as the domain holds them
    await this.db.transaction(async (tx) => {
      await ensureMerchant(tx, merchantId);
      await tx.execute(sql`
        INSERT INTO shipping_profiles (merchant_id, profile, updated_at) VALUES (${merchantId}, ${document}::jsonb, now())
        ON CONFLICT (merchant_id) DO UPDATE SET profile = excluded.profile, updated_at = excluded.updated_at`);
      await tx.execute(sql`SELECT pg_notify(${SHIPPING_PROFILES_CHANNEL}, ${merchantId})`);
    });
  }

  /** Removes the merchant's profile (it then ships at the settings' flat rate); false when it had none. */
  async remove(merchantId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const removed = await tx.query<{ merchant_id: string }>(sql`DELETE FROM shipping_profiles WHERE merchant_id = ${merchantId} RETURNING merchant_id`);
      if (removed.length > 0) await tx.execute(sql`SELECT pg_notify(${SHIPPING_PROFILES_CHANNEL}, ${merchantId})`);
      return removed.length > 0;
    });
  }
}
