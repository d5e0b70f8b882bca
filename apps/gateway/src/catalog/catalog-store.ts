import type { Prisma } from '../db/database.js';
import { Prisma as SQL } from '../generated/prisma/client.js';
import { toProduct } from './product-mapper.js';
import type { Product } from '../contract-types.js';

export interface ProductFilter {
  category?: string | undefined;
  tag?: string | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
}

const related = {
  variants: { orderBy: { position: 'asc' } },
  images: { orderBy: { position: 'asc' } },
} as const;

const DOCUMENT = SQL.sql`(
  setweight(to_tsvector('english', title), 'A') ||
  setweight(to_tsvector('english', category || ' ' || array_to_string(tags, ' ')), 'B') ||
  setweight(to_tsvector('english', vendor), 'C') ||
  setweight(to_tsvector('english', description), 'D'))`;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function whereClause(merchantId: string, filter: ProductFilter): SQL.Sql {
  const conditions = [SQL.sql`merchant_id = ${merchantId}`];
  if (filter.category) conditions.push(SQL.sql`category ILIKE ${`%${escapeLike(filter.category)}%`}`);
  if (filter.tag) conditions.push(SQL.sql`EXISTS (SELECT 1 FROM unnest(tags) AS t WHERE lower(t) = lower(${filter.tag}))`);
  if (filter.minPrice !== undefined) conditions.push(SQL.sql`price >= ${filter.minPrice}`);
  if (filter.maxPrice !== undefined) conditions.push(SQL.sql`price <= ${filter.maxPrice}`);
  return SQL.join(conditions, ' AND ');
}

/** The only code that reads and writes the catalog tables. */
export class CatalogStore {
  constructor(private readonly prisma: Prisma) {}

  async get(merchantId: string, id: string): Promise<Product | undefined> {
    const row = await this.prisma.product.findUnique({ where: { merchantId_id: { merchantId, id } }, include: related });
    return row ? toProduct(row) : undefined;
  }

  /** Products in the given order (ids that do not exist are skipped). */
  async getMany(merchantId: string, ids: readonly string[]): Promise<Product[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.product.findMany({ where: { merchantId, id: { in: [...ids] } }, include: related });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toProduct(row)] : [];
    });
  }

  /** One page of the products matching the filter, ordered by title then id (code-point order, the same on
   * PostgreSQL and PGlite whatever their locale), and the number of all matches. */
  async filter(
    merchantId: string,
    filter: ProductFilter,
    page: { offset: number; limit: number },
  ): Promise<{ ids: string[]; total: number }> {
    const where = whereClause(merchantId, filter);
    const [counted] = await this.prisma.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS total FROM products WHERE ${where}`;
    const total = Number(counted?.total ?? 0);
    if (total === 0 || page.offset >= total) return { ids: [], total };
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT id FROM products WHERE ${where} ORDER BY title COLLATE "C", id COLLATE "C" LIMIT ${page.limit} OFFSET ${page.offset}`;
    return { ids: rows.map((r) => r.id), total };
  }

  /**
   * Keyword search with PostgreSQL full-text search over title, category, tags,
   * vendor and description (weighted A to D), ranked best first; the score is
   * ts_rank_cd normalised into [0, 1). Filters apply before ranking.
   */
  async keywordSearch(
    merchantId: string,
    q: string,
    filter: ProductFilter,
    page: { offset: number; limit: number },
  ): Promise<{ hits: { id: string; score: number }[]; total: number }> {
    const where = SQL.sql`${whereClause(merchantId, filter)} AND ${DOCUMENT} @@ websearch_to_tsquery('english', ${q})`;
    const [counted] = await this.prisma.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS total FROM products WHERE ${where}`;
    const total = Number(counted?.total ?? 0);
    if (total === 0 || page.offset >= total) return { hits: [], total };
    const rows = await this.prisma.$queryRaw<{ id: string; score: number }[]>`
      SELECT id, ts_rank_cd(${DOCUMENT}, websearch_to_tsquery('english', ${q}), 32) AS score
      FROM products WHERE ${where}
      ORDER BY score DESC, title COLLATE "C", id COLLATE "C" LIMIT ${page.limit} OFFSET ${page.offset}`;
    return { hits: rows.map((r) => ({ id: r.id, score: Number(r.score) })), total };
  }

  count(merchantId: string): Promise<number> {
    return this.prisma.product.count({ where: { merchantId } });
  }
}
