/** The catalog's writes: an import's batches, in one unit of work on the driver (db/transaction.ts). */
import type { Product } from '../contract/types.js';
import type { Tx, UnitOfWork } from '../db/transaction.js';
import { sql } from '../db/statement.js';
import { ensureMerchant } from '../merchants/merchant-store.js';
import { asParameters, imageColumns, productColumns, variantColumns } from './import/column-arrays.js';

export class SkuConflictError extends Error {
  constructor(
    readonly sku: string,
    readonly ownerId: string,
  ) {
    super(`variant sku ${JSON.stringify(sku)} already belongs to product ${JSON.stringify(ownerId)}`);
  }
}

/**
 * Writes products inside one transaction. `replace` upserts by id (each batch deletes the products it
 * names, checks its SKUs against the merchant's other products, then inserts); `insert` only inserts,
 * for a merchant that held no product when the transaction began (`holdsProducts`) and a file whose
 * ids and SKUs are already known to be unique: nothing to delete, nothing to conflict with.
 */
export class CatalogWriter {
  constructor(
    private readonly tx: Tx,
    private readonly merchantId: string,
  ) {}

  /** Whether the merchant has any product (as this transaction sees it). */
  async holdsProducts(): Promise<boolean> {
    const rows = await this.tx.query<{ one: number }>(sql`SELECT 1 AS one FROM products WHERE merchant_id = ${this.merchantId} LIMIT 1`);
    return rows.length > 0;
  }

  /** Upserts products by id; `embeddings[i]` (when given) is product i's search vector, made by `embeddingModel`. */
  async replace(products: readonly Product[], embeddings: readonly (Float32Array | undefined)[] = [], embeddingModel?: string): Promise<void> {
    const merchantId = this.merchantId;
    const ids = products.map((p) => p.id);
    await this.tx.execute(sql`DELETE FROM products WHERE merchant_id = ${merchantId} AND id = ANY(${ids}::text[])`);
    const skus = products.flatMap((p) => p.variants.map((v) => v.sku));
    if (skus.length) {
      const [taken] = await this.tx.query<{ sku: string; productId: string }>(sql`
        SELECT sku, product_id AS "productId" FROM variants WHERE merchant_id = ${merchantId} AND sku = ANY(${skus}::text[]) LIMIT 1`);
      if (taken) throw new SkuConflictError(taken.sku, taken.productId);
    }
    await this.insert(products, embeddings, embeddingModel);
  }

  /**
   * Inserts products that are not stored yet (a conflict is the database's unique violation).
   * One INSERT … SELECT FROM unnest(column arrays) per table and batch, each column one array
   * literal (column-arrays.ts): far cheaper than row-by-row parameters; unlike jsonb_to_recordset, the
   * server parses no JSON object per row (measured together with the first import's skipped DELETE, SKU
   * check and ANALYZE: the server's CPU for 200,000 products down from ~29 s to ~20 s, bench/search/import.ts).
   */
  async insert(products: readonly Product[], embeddings: readonly (Float32Array | undefined)[] = [], embeddingModel?: string): Promise<void> {
    const merchantId = this.merchantId;
    const p = asParameters(productColumns(products, embeddingModel ? embeddings : []));
    await this.tx.execute(sql`
      INSERT INTO products (merchant_id, id, title, description, vendor, category, price, currency, tags, attributes,
                            quantity, policy, embedding, embedding_model, updated_at)
      SELECT ${merchantId}::text, r.id, r.title, r.description, r.vendor, r.category, r.price, r.currency,
             r.tags::text[], r.attributes::jsonb, r.quantity, r.policy::"InventoryPolicy",
             decode(r.embedding, 'base64'), CASE WHEN r.embedding IS NULL THEN NULL ELSE ${embeddingModel ?? null}::text END,
             CURRENT_TIMESTAMP
      FROM unnest(${p.id}::text[], ${p.title}::text[], ${p.description}::text[], ${p.vendor}::text[], ${p.category}::text[],
                  ${p.price}::float8[], ${p.currency}::text[], ${p.tags}::text[], ${p.attributes}::text[], ${p.quantity}::int[],
                  ${p.policy}::text[], ${p.embedding}::text[])
        AS r(id, title, description, vendor, category, price, currency, tags, attributes, quantity, policy, embedding)`);
    const v = asParameters(variantColumns(products));
    if (products.some((product) => product.variants.length)) {
      await this.tx.execute(sql`
        INSERT INTO variants (merchant_id, product_id, sku, position, title, price, currency, requires_shipping, taxable,
                              weight_grams, weight_unit, attributes, quantity, policy)
        SELECT ${merchantId}::text, r.product_id, r.sku, r.position, r.title, r.price, r.currency, r.requires_shipping, r.taxable,
               r.weight_grams, r.weight_unit, r.attributes::jsonb, r.quantity, r.policy::"InventoryPolicy"
        FROM unnest(${v.productId}::text[], ${v.sku}::text[], ${v.position}::int[], ${v.title}::text[], ${v.price}::float8[],
                    ${v.currency}::text[], ${v.requiresShipping}::boolean[], ${v.taxable}::boolean[], ${v.weightGrams}::float8[],
                    ${v.weightUnit}::text[], ${v.attributes}::text[], ${v.quantity}::int[], ${v.policy}::text[])
          AS r(product_id, sku, position, title, price, currency, requires_shipping, taxable, weight_grams, weight_unit,
               attributes, quantity, policy)`);
    }
    const images = asParameters(imageColumns(products));
    if (products.some((product) => product.images.length)) {
      await this.tx.execute(sql`
        INSERT INTO images (merchant_id, product_id, position, url, alt_text)
        SELECT ${merchantId}::text, r.product_id, r.position, r.url, r.alt_text
        FROM unnest(${images.productId}::text[], ${images.position}::int[], ${images.url}::text[], ${images.altText}::text[])
          AS r(product_id, position, url, alt_text)`);
    }
  }

  /**
   * Refreshes the planner's statistics of the catalog tables, counting this transaction's own
   * rows. An import is one transaction, so autovacuum never sees what it adds: on a fresh
   * table every batch would be planned as if the table were empty (measured: writes slowing
   * down quadratically, ~8 minutes for 50,000 products instead of ~30 s).
   */
  async analyze(): Promise<void> {
    await this.tx.execute(sql`ANALYZE products, variants, images`);
  }

  /** Tells other processes (LISTEN catalog_changed) about this transaction's change once it commits. */
  async announce(payload: string): Promise<void> {
    await this.tx.query(sql`SELECT pg_notify('catalog_changed', ${payload}::text)`);
  }
}

/** Runs `work` in one transaction with a writer for the merchant, creating the merchant if new. */
export async function withCatalogWriter<T>(db: UnitOfWork, merchantId: string, work: (writer: CatalogWriter) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await ensureMerchant(tx, merchantId);
    return work(new CatalogWriter(tx, merchantId));
  });
}
