/** Merchants as the admin API lists and creates them. */
import type { Database } from '../db/database.js';
import { after, NEWEST_FIRST, pageOf, type Page, type PageParams } from './page-cursor.js';

export interface MerchantRecord {
  id: string;
  name: string;
  createdAt: Date;
  /** The Stripe connected account its payments go to; null: none. */
  stripeAccountId: string | null;
}

export class MerchantStore {
  constructor(private readonly db: Pick<Database, 'prisma'>) {}

  /** Newest first; only `ids` unless undefined (every merchant). */
  async list(params: PageParams, ids: string[] | undefined): Promise<Page<MerchantRecord>> {
    const rows = await this.db.prisma.merchant.findMany({
      where: { AND: [ids ? { id: { in: ids } } : {}, after(params.cursor)] },
      orderBy: NEWEST_FIRST,
      take: params.limit + 1,
    });
    return pageOf(rows, params.limit, (row) => row);
  }

  /** The new merchant; undefined when the id is taken. */
  async create(id: string, name: string): Promise<MerchantRecord | undefined> {
    const rows = await this.db.prisma.merchant.createManyAndReturn({ data: [{ id, name }], skipDuplicates: true });
    return rows[0];
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.prisma.merchant.count({ where: { id } })) > 0;
  }
}
