/**
 * The only code that reads the catalog tables (catalog-writer.ts writes them). Whole products
 * with their relations come through Prisma's query builder; every statement of our own, the bulk
 * loads of the read model and the search index included, runs on the database's driver
 * (db/sql.ts), whose text and JSON results cost far less to decode than Prisma's raw rows
 * (measured: loading 50,000 products ~10 s through Prisma, ~1 s through the driver).
 */
import type { Database } from '../db/database.js';
import { sql, joinSql, type Statement } from '../db/statement.js';
import { toProduct } from './product-mapper.js';
import type { Product } from '../contract/types.js';
import { catalogById, catalogPage, decodeCatalogRows, type CatalogRow } from './catalog-rows.js';
import type { StockRow } from './read-model/restock.js';
import type { ProductFilter } from '../search/filter.js';

const related = {
  variants: { orderBy: { position: 'asc' } },
  images: { orderBy: { position: 'asc' } },
} as const;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function whereClause(merchantId: string, filter: ProductFilter): Statement {
  const conditions = [sql`merchant_id = ${merchantId}`];
  if (filter.category) conditions.push(sql`category ILIKE ${`%${escapeLike(filter.category)}%`}`);
  if (filter.tag) conditions.push(sql`EXISTS (SELECT 1 FROM unnest(tags) AS t WHERE lower(t) = lower(${filter.tag}))`);
  if (filter.minPrice !== undefined) conditions.push(sql`price >= ${filter.minPrice}`);
  if (filter.maxPrice !== undefined) conditions.push(sql`price <= ${filter.maxPrice}`);
  return joinSql(conditions, ' AND ');
}

export class CatalogStore {
  private readonly prisma: Database['prisma'];
  private readonly sql: Database['sql'];

  constructor(db: Pick<Database, 'prisma' | 'sql'>) {
    ({ prisma: this.prisma, sql: this.sql } = db);
  }

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
    const [counted] = await this.sql.query<{ total: number }>(sql`SELECT count(*)::int AS total FROM products WHERE ${where}`);
    const total = counted?.total ?? 0;
    if (total === 0 || page.offset >= total) return { ids: [], total };
    const rows = await this.sql.query<{ id: string }>(sql`
      SELECT id FROM products WHERE ${where} ORDER BY title COLLATE "C", id COLLATE "C" LIMIT ${page.limit}::int OFFSET ${page.offset}::int`);
    return { ids: rows.map((r) => r.id), total };
  }

  count(merchantId: string): Promise<number> {
    return this.prisma.product.count({ where: { merchantId } });
  }

  /** Products (of every merchant) without a vector from this embedder: found by keywords only. */
  async countWithoutVectors(model: string, dimensions: number): Promise<number> {
    const [row] = await this.sql.query<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM products
      WHERE embedding IS NULL OR embedding_model IS DISTINCT FROM ${model}::text OR octet_length(embedding) <> ${dimensions * 4}::int`);
    return row?.n ?? 0;
  }

  /**
   * The currencies a merchant sells in: its products' and its variants' (a variant may be priced in
   * a currency of its own, and checkout charges the variant's price). Upper-case; empty without products.
   * The one answer for discounts and shipping profiles alike.
   */
  async currencies(merchantId: string): Promise<Set<string>> {
    const rows = await this.sql.query<{ currency: string }>(sql`
      SELECT DISTINCT upper(currency) AS currency FROM products WHERE merchant_id = ${merchantId}
      UNION SELECT DISTINCT upper(currency) FROM variants WHERE merchant_id = ${merchantId}`);
    return new Set(rows.map((r) => r.currency.trim()));
  }

  /** Merchants that have at least one product. */
  async merchantsWithProducts(): Promise<string[]> {
    const rows = await this.sql.query<{ merchant_id: string }>(sql`SELECT DISTINCT merchant_id FROM products`);
    return rows.map((r) => r.merchant_id);
  }

  /** A merchant's whole products (with their embeddings) in batches, for the catalog read model. */
  async *catalogRows(merchantId: string, batchSize = 1000): AsyncGenerator<CatalogRow[]> {
    let after = '';
    for (;;) {
      const [page] = await this.sql.query<{ rows: string | null }>(catalogPage(merchantId, after, batchSize));
      const rows = decodeCatalogRows(page?.rows);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < batchSize) return;
      after = rows.at(-1)!.product.id;
    }
  }

  /** The named products, whole (ids that do not exist are left out). */
  async catalogRowsById(merchantId: string, ids: readonly string[]): Promise<CatalogRow[]> {
    if (ids.length === 0) return [];
    const [row] = await this.sql.query<{ rows: string | null }>(catalogById(merchantId, ids));
    return decodeCatalogRows(row?.rows);
  }

  /** The stock of the named products (ids that do not exist are left out): what a completion changes. */
  async stockById(merchantId: string, ids: readonly string[]): Promise<StockRow[]> {
    if (ids.length === 0) return [];
    const statement = sql`
      SELECT json_agg(json_build_object('id', p.id, 'quantity', p.quantity, 'policy', p.policy, 'variants',
               (SELECT coalesce(json_agg(json_build_object('sku', v.sku, 'quantity', v.quantity, 'policy', v.policy) ORDER BY v.position), '[]')
                FROM variants AS v WHERE v.merchant_id = p.merchant_id AND v.product_id = p.id)))::text AS rows
      FROM products AS p WHERE p.merchant_id = ${merchantId} AND p.id = ANY(${[...ids]}::text[])`;
    const [row] = await this.sql.query<{ rows: string | null }>(statement);
    return row?.rows ? (JSON.parse(row.rows) as StockRow[]) : [];
  }

  /** The merchant's catalog version (changed by triggers whenever anything but stock changes; see catalog/read-model/catalog-snapshots.ts), if it has one. */
  async catalogVersion(merchantId: string): Promise<string | undefined> {
    const [row] = await this.sql.query<{ version: string }>(sql`SELECT version::text AS version FROM catalog_versions WHERE merchant_id = ${merchantId}`);
    return row?.version;
  }

  /**
   * Every product's stock, for a check against a persisted snapshot (read-model/stock-key.ts): the
   * products' own (`id U+0003 quantity U+0001 policy`) by id, and their variants' (`product id
   * U+0003 sku U+0001 quantity U+0001 policy`) by product id and position, each list one text (entries
   * joined by U+0004), read at once on two connections. One value each, not a row an object per
   * product: at a million products those rows took seconds to decode and collect, and aggregating
   * per product in SQL three times as long as these flat reads.
   */
  async stockLists(merchantId: string): Promise<{ products: string; variants: string }> {
    const [[products], [variants]] = await Promise.all([
      this.sql.query<{ list: string | null }>(
        sql`SELECT string_agg(id || chr(3) || quantity::text || chr(1) || policy::text, chr(4) ORDER BY id) AS list FROM products WHERE merchant_id = ${merchantId}`,
      ),
      this.sql.query<{ list: string | null }>(
        sql`SELECT string_agg(product_id || chr(3) || sku || chr(1) || quantity::text || chr(1) || policy::text, chr(4) ORDER BY product_id, position) AS list
            FROM variants WHERE merchant_id = ${merchantId}`,
      ),
    ]);
    return { products: products?.list ?? '', variants: variants?.list ?? '' };
  }

  /** NOTIFY catalog_changed (heard by CatalogSearch through db/pg-listener.ts). */
  async announce(payload: string): Promise<void> {
    await this.sql.query(sql`SELECT pg_notify('catalog_changed', ${payload}::text)`);
  }

  /** Persists embeddings (float32, little-endian) without touching updated_at. */
  async saveEmbeddings(merchantId: string, model: string, entries: readonly { id: string; vector: Float32Array }[]): Promise<void> {
    if (entries.length === 0) return;
    const ids = entries.map((e) => e.id);
    const encoded = entries.map((e) => Buffer.from(e.vector.buffer, e.vector.byteOffset, e.vector.byteLength).toString('base64'));
    await this.sql.execute(sql`
      UPDATE products AS p SET embedding = decode(v.b64, 'base64'), embedding_model = ${model}::text
      FROM (SELECT unnest(${ids}::text[]) AS id, unnest(${encoded}::text[]) AS b64) AS v
      WHERE p.merchant_id = ${merchantId} AND p.id = v.id`);
  }
}
