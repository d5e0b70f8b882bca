import type { Database } from '../db/database.js';

export interface MerchantRecord {
  id: string;
  name: string;
  createdAt: Date;
  products: number;
  apiKeys: number;
}

/** Merchants: the rows everything else belongs to. */
export class MerchantStore {
  constructor(private readonly db: Pick<Database, 'prisma'>) {}

  /** The ids among `ids` that are no merchant's. */
  async missing(ids: readonly string[]): Promise<string[]> {
    const found = await this.db.prisma.merchant.findMany({ where: { id: { in: [...ids] } }, select: { id: true } });
    const known = new Set(found.map((row) => row.id));
    return ids.filter((id) => !known.has(id));
  }

  /** Creates the merchant; false when it exists already. */
  async create(id: string, name: string): Promise<boolean> {
    const { count } = await this.db.prisma.merchant.createMany({ data: [{ id, name }], skipDuplicates: true });
    return count === 1;
  }

  async list(): Promise<MerchantRecord[]> {
    const rows = await this.db.prisma.merchant.findMany({
      orderBy: { id: 'asc' },
      select: { id: true, name: true, createdAt: true, _count: { select: { products: true, apiKeys: true } } },
    });
    return rows.map(({ _count, ...row }) => ({ ...row, products: _count.products, apiKeys: _count.apiKeys }));
  }
}
