/**
 * A frozen copy of the importer as it was before the import was made faster (commit a791849), kept
 * only so that bench/search/import.ts can time it against the current one in the same run.
 * Not used by the gateway; do not fix or improve it.
 */
/** The catalog's writes: an import's batches, in one unit of work on the driver (db/transaction.ts). */
import type { Product } from '../../../apps/gateway/src/contract/types.js';
import { NOW_UTC } from '../../../apps/gateway/src/db/sql-time.js';
import type { Tx, UnitOfWork } from '../../../apps/gateway/src/db/transaction.js';
import { sql } from '../../../apps/gateway/src/db/statement.js';

export class SkuConflictError extends Error {
  constructor(
    readonly sku: string,
    readonly ownerId: string,
  ) {
    super(`variant sku ${JSON.stringify(sku)} already belongs to product ${JSON.stringify(ownerId)}`);
  }
}

/** Writes products inside one transaction: each batch replaces the products it names (upsert by id). */
export class CatalogWriter {
  constructor(
    private readonly tx: Tx,
    private readonly merchantId: string,
  ) {}

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
    // One INSERT … SELECT FROM jsonb_to_recordset per table and batch: far cheaper than row-by-row
    // parameters on PostgreSQL and PGlite alike (see bench/search).
    const productRows = products.map((p, i) => ({
      id: p.id,
      title: p.title,
      description: p.description,
      vendor: p.vendor,
      category: p.category,
      price: p.price,
      currency: p.currency,
      tags: p.tags,
      attributes: p.attributes,
      quantity: p.availability.quantity,
      policy: p.availability.policy,
      ...embeddingColumns(embeddings[i], embeddingModel),
    }));
    await this.tx.execute(sql`
      INSERT INTO products (merchant_id, id, title, description, vendor, category, price, currency, tags, attributes,
                            quantity, policy, embedding, embedding_model, updated_at)
      SELECT ${merchantId}::text, r.id, r.title, r.description, r.vendor, r.category, r.price, r.currency,
             ARRAY(SELECT jsonb_array_elements_text(r.tags)), r.attributes, r.quantity, r.policy::"InventoryPolicy",
             decode(r.embedding, 'base64'), r.embedding_model, CURRENT_TIMESTAMP
      FROM jsonb_to_recordset(${JSON.stringify(productRows)}::jsonb) AS r(
        id text, title text, description text, vendor text, category text, price float8, currency text, tags jsonb,
        attributes jsonb, quantity int, policy text, embedding text, embedding_model text)`);
    const variants = products.flatMap((p) =>
      p.variants.map((v, position) => ({
        product_id: p.id,
        sku: v.sku,
        position,
        title: v.title,
        price: v.price,
        currency: v.currency,
        requires_shipping: v.requires_shipping ?? null,
        taxable: v.taxable ?? null,
        weight_grams: v.weight_grams ?? null,
        weight_unit: v.weight_unit ?? null,
        attributes: v.attributes,
        quantity: v.inventory.quantity,
        policy: v.inventory.policy,
      })),
    );
    if (variants.length) {
      await this.tx.execute(sql`
        INSERT INTO variants (merchant_id, product_id, sku, position, title, price, currency, requires_shipping, taxable,
                              weight_grams, weight_unit, attributes, quantity, policy)
        SELECT ${merchantId}::text, r.product_id, r.sku, r.position, r.title, r.price, r.currency, r.requires_shipping, r.taxable,
               r.weight_grams, r.weight_unit, r.attributes, r.quantity, r.policy::"InventoryPolicy"
        FROM jsonb_to_recordset(${JSON.stringify(variants)}::jsonb) AS r(
          product_id text, sku text, position int, title text, price float8, currency text, requires_shipping boolean,
          taxable boolean, weight_grams float8, weight_unit text, attributes jsonb, quantity int, policy text)`);
    }
    const images = products.flatMap((p) =>
      p.images.map((image, index) => ({ product_id: p.id, position: image.position ?? index, url: image.url, alt_text: image.alt_text ?? null })),
    );
    if (images.length) {
      await this.tx.execute(sql`
        INSERT INTO images (merchant_id, product_id, position, url, alt_text)
        SELECT ${merchantId}::text, r.product_id, r.position, r.url, r.alt_text
        FROM jsonb_to_recordset(${JSON.stringify(images)}::jsonb) AS r(product_id text, position int, url text, alt_text text)`);
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

/** The vector as base64 of its float32 little-endian bytes, and the model that made it. */
function embeddingColumns(vector: Float32Array | undefined, model: string | undefined): { embedding: string | null; embedding_model: string | null } {
  if (!vector || !model) return { embedding: null, embedding_model: null };
  return { embedding: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64'), embedding_model: model };
}

/** Runs `work` in one transaction with a writer for the merchant, creating the merchant if new. */
export async function withCatalogWriter<T>(db: UnitOfWork, merchantId: string, work: (writer: CatalogWriter) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO merchants (id, name, created_at) VALUES (${merchantId}, ${merchantId}, ${NOW_UTC}) ON CONFLICT (id) DO NOTHING`);
    return work(new CatalogWriter(tx, merchantId));
  });
}
