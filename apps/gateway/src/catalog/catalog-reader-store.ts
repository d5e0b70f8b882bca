/**
 * The catalog as checkout reads it when it sells: products with what a cart line needs of their
 * variants, which product a SKU belongs to, and stock levels — the catalog's own statements,
 * which checkout calls (in its transaction when it passes one) instead of reading the catalog's
 * tables itself. The one exception stays in checkout, on the hot path: the completion's statement
 * (checkout/completion-sql.ts) takes stock in the same round trip as it writes the order, and the
 * completion's read (checkout/completion-read-store.ts) reads the lines' stock with the session.
 */
import type { Database } from '../db/database.js';
import type { Sql } from '../db/sql.js';
import { sql } from '../db/statement.js';

export interface SoldVariant {
  sku: string;
  price: number;
  currency: string;
  requiresShipping: boolean | null;
  taxable: boolean | null;
}

/** A product as checkout prices it; `variants` in catalog order. */
export interface SoldProduct {
  id: string;
  title: string;
  category?: string | null;
  price: number;
  currency: string;
  variants: SoldVariant[];
}

/** A SKU's stock as read: its product, units left and inventory policy (a product without variants is its own SKU). */
export interface StockLevel {
  productId: string;
  sku: string;
  quantity: number;
  policy: string;
}

export class CatalogReader {
  constructor(private readonly db: Pick<Database, 'sql' | 'prisma'>) {}

  /** The merchant's products among `ids`, on `on` (a transaction when given one: on PGlite nothing else can run while one is open). */
  async productsForSale(merchantId: string, ids: readonly string[], on: Sql = this.db.sql): Promise<Map<string, SoldProduct>> {
    const [row] = await on.query<{ products: string | null }>(sql`
      SELECT json_agg(json_build_object('id', p.id, 'title', p.title, 'category', p.category, 'price', p.price, 'currency', p.currency, 'variants',
               (SELECT coalesce(json_agg(json_build_object('sku', v.sku, 'price', v.price, 'currency', v.currency,
                         'requiresShipping', v.requires_shipping, 'taxable', v.taxable) ORDER BY v.position), '[]')
                FROM variants AS v WHERE v.merchant_id = p.merchant_id AND v.product_id = p.id)))::text AS products
      FROM products AS p WHERE p.merchant_id = ${merchantId} AND p.id = ANY(${[...new Set(ids)]}::text[])`);
    const products = row?.products ? (JSON.parse(row.products) as SoldProduct[]) : [];
    return new Map(products.map((product) => [product.id, product]));
  }

  /** The product of each SKU among `skus` that is one of the merchant's variants. */
  async skuOwners(merchantId: string, skus: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.db.prisma.variant.findMany({ where: { merchantId, sku: { in: [...new Set(skus)] } }, select: { sku: true, productId: true } });
    return new Map(rows.map((row) => [row.sku, row.productId]));
  }

  /** The stock of the variants among `skus` and of the products among `productIds` that have none, on `on`. */
  async stockLevels(merchantId: string, skus: readonly string[], productIds: readonly string[], on: Sql = this.db.sql): Promise<StockLevel[]> {
    return on.query<StockLevel>(sql`
      SELECT v.product_id AS "productId", v.sku, v.quantity, v.policy::text AS policy
      FROM variants AS v WHERE v.merchant_id = ${merchantId} AND v.sku = ANY(${[...skus]}::text[])
      UNION ALL
      SELECT p.id, p.id, p.quantity, p.policy::text FROM products AS p
      WHERE p.merchant_id = ${merchantId} AND p.id = ANY(${[...productIds]}::text[])
        AND NOT EXISTS (SELECT 1 FROM variants AS v WHERE v.merchant_id = p.merchant_id AND v.product_id = p.id)`);
  }

  /** Units left of one SKU of a product (the product itself when it has no variants), on `on`; undefined when gone from the catalog. */
  async unitsLeft(on: Sql, merchantId: string, productId: string, sku: string): Promise<number | undefined> {
    const [variant] = await on.query<{ quantity: number }>(sql`
      SELECT quantity FROM variants WHERE merchant_id = ${merchantId} AND product_id = ${productId} AND sku = ${sku}`);
    if (variant) return variant.quantity;
    if (sku !== productId) return undefined;
    const [product] = await on.query<{ quantity: number }>(sql`
      SELECT quantity FROM products WHERE merchant_id = ${merchantId} AND id = ${productId}
        AND NOT EXISTS (SELECT 1 FROM variants v WHERE v.merchant_id = ${merchantId} AND v.product_id = ${productId})`);
    return product?.quantity;
  }
}
