import type { Database } from '../db/database.js';
import { NOW_UTC } from '../db/sql-time.js';
import { sql } from '../db/statement.js';
import type { Tx } from '../db/transaction.js';

/** NOTIFY'd with the merchant id when its payment account changes, so every gateway's cache forgets it. */
export const MERCHANT_PAYMENTS_CHANNEL = 'merchant_payments_changed';

export interface MerchantRecord {
  id: string;
  name: string;
  createdAt: Date;
  products: number;
  apiKeys: number;
  /** The Stripe connected account its payments go to; null: none. */
  stripeAccountId: string | null;
}

/** A merchant as the admin API shows it (no counts). */
export type MerchantRow = Omit<MerchantRecord, 'products' | 'apiKeys'>;

/** Where a newest-first page starts: after the item of that creation time and id (the admin API's cursor). */
export interface PagePosition {
  createdAt: Date;
  id: string;
}

const MERCHANT_ROW = { id: true, name: true, createdAt: true, stripeAccountId: true } as const;

/**
 * Creates the merchant if new, named by its id, in the caller's transaction: what an operator's
 * import does for a merchant it names first (catalog, customers, discounts, shipping profiles). The merchants' own
 * statement, so that no other domain writes their table.
 */
export async function ensureMerchant(tx: Tx, merchantId: string): Promise<void> {
  await tx.execute(sql`INSERT INTO merchants (id, name, created_at) VALUES (${merchantId}, ${merchantId}, ${NOW_UTC}) ON CONFLICT (id) DO NOTHING`);
}

/** ensureMerchant for each of these ids, in one statement (a key naming merchants for the first time). */
export async function ensureMerchants(tx: Tx, merchantIds: readonly string[]): Promise<void> {
  await tx.execute(sql`INSERT INTO merchants (id, name, created_at) SELECT id, id, ${NOW_UTC} FROM unnest(${[...merchantIds]}::text[]) AS id ON CONFLICT (id) DO NOTHING`);
}

/** Merchants: the rows everything else belongs to. */
export class MerchantStore {
  constructor(private readonly db: Pick<Database, 'prisma' | 'transaction'>) {}

  /** The merchant's Stripe connected account: null when it has none, undefined when there is no such merchant. */
  async stripeAccount(id: string): Promise<string | null | undefined> {
    const row = await this.db.prisma.merchant.findUnique({ where: { id }, select: { stripeAccountId: true } });
    return row ? row.stripeAccountId : undefined;
  }

  /** Sets (or with null clears) the merchant's Stripe account, announced on MERCHANT_PAYMENTS_CHANNEL; false when there is no such merchant. */
  async setStripeAccount(id: string, account: string | null): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const updated = await tx.query<{ id: string }>(sql`UPDATE merchants SET stripe_account_id = ${account} WHERE id = ${id} RETURNING id`);
      if (updated.length > 0) await tx.execute(sql`SELECT pg_notify(${MERCHANT_PAYMENTS_CHANNEL}, ${id})`);
      return updated.length > 0;
    });
  }

  /** The ids among `ids` that are no merchant's. */
  async missing(ids: readonly string[]): Promise<string[]> {
    const found = await this.db.prisma.merchant.findMany({ where: { id: { in: [...ids] } }, select: { id: true } });
    const known = new Set(found.map((row) => row.id));
    return ids.filter((id) => !known.has(id));
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.prisma.merchant.count({ where: { id } })) > 0;
  }

  /** Creates the merchant; undefined when it exists already. */
  async create(id: string, name: string): Promise<MerchantRow | undefined> {
    const rows = await this.db.prisma.merchant.createManyAndReturn({ data: [{ id, name }], skipDuplicates: true, select: MERCHANT_ROW });
    return rows[0];
  }

  /** Up to `take` merchants newest first (ties by id descending), after `position`; only `ids` unless undefined (every merchant). */
  async newestFirst(ids: readonly string[] | undefined, position: PagePosition | undefined, take: number): Promise<MerchantRow[]> {
    const after = position ? { OR: [{ createdAt: { lt: position.createdAt } }, { createdAt: position.createdAt, id: { lt: position.id } }] } : {};
    return this.db.prisma.merchant.findMany({
      where: { AND: [ids ? { id: { in: [...ids] } } : {}, after] },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take,
      select: MERCHANT_ROW,
    });
  }

  async list(): Promise<MerchantRecord[]> {
    const rows = await this.db.prisma.merchant.findMany({
      orderBy: { id: 'asc' },
      select: { id: true, name: true, createdAt: true, stripeAccountId: true, _count: { select: { products: true, apiKeys: true } } },
    });
    return rows.map(({ _count, ...row }) => ({ ...row, products: _count.products, apiKeys: _count.apiKeys }));
  }
}
