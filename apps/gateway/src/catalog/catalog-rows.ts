/**
 * Whole products as the catalog read model loads them: every column the contract shows,
 * variants and images in order, and the persisted search embedding — one JSON text per
 * product, aggregated per batch (PGlite in particular returns one large text far faster
 * than thousands of rows, and PostgreSQL's json of float8 round-trips exactly).
 */
import type { Product } from '../contract/types.js';
import { sql } from '../db/statement.js';
import { toProduct } from './product-mapper.js';
import type { ProductRecord } from './product-record.js';

/** A product, and the vector the search index needs of it (not kept by the read model). */
export interface CatalogRow {
  product: Product;
  embedding: Float32Array | undefined;
  embeddingModel: string | undefined;
}

const ROW_JSON = sql`json_build_object(
  'id', p.id, 'title', p.title, 'description', p.description, 'vendor', p.vendor, 'category', p.category,
  'price', p.price, 'currency', p.currency, 'tags', p.tags, 'attributes', p.attributes, 'quantity', p.quantity,
  'policy', p.policy, 'embedding', encode(p.embedding, 'base64'), 'model', p.embedding_model,
  'variants', coalesce(v.list, '[]'), 'images', coalesce(i.list, '[]'))::text`;

/**
 * The products of CTE `p` with their variants and images: each side aggregated once for the
 * whole batch and joined (hash joins), not a subquery per product (measured: several times slower on PGlite).
 */
const withRelations = (merchantId: string) => sql`
  v AS (SELECT product_id, json_agg(json_build_object('sku', sku, 'title', title, 'price', price, 'currency', currency,
          'requiresShipping', requires_shipping, 'taxable', taxable, 'weightGrams', weight_grams, 'weightUnit', weight_unit,
          'attributes', attributes, 'quantity', quantity, 'policy', policy) ORDER BY position) AS list
        FROM variants WHERE merchant_id = ${merchantId} AND product_id IN (SELECT id FROM p) GROUP BY product_id),
  i AS (SELECT product_id, json_agg(json_build_object('url', url, 'altText', alt_text, 'position', position) ORDER BY position) AS list
        FROM images WHERE merchant_id = ${merchantId} AND product_id IN (SELECT id FROM p) GROUP BY product_id)
  SELECT string_agg(${ROW_JSON}, chr(10) ORDER BY p.id) AS rows
  FROM p LEFT JOIN v ON v.product_id = p.id LEFT JOIN i ON i.product_id = p.id`;

/** One page of a merchant's products after id `after` (keyset, in the primary key's order), at most `limit`: one row, `rows`. */
export const catalogPage = (merchantId: string, after: string, limit: number) =>
  sql`WITH p AS (SELECT * FROM products WHERE merchant_id = ${merchantId} AND id > ${after} ORDER BY id LIMIT ${limit}::int), ${withRelations(merchantId)}`;

/** The named products: one row, `rows`. */
export const catalogById = (merchantId: string, ids: readonly string[]) =>
  sql`WITH p AS (SELECT * FROM products WHERE merchant_id = ${merchantId} AND id = ANY(${[...ids]}::text[])), ${withRelations(merchantId)}`;

interface JsonRow extends Omit<ProductRecord, 'embedding' | 'embeddingModel' | 'merchantId' | 'createdAt' | 'updatedAt'> {
  embedding: string | null;
  model: string | null;
  tags: string[];
}

/** Decodes the rows of one aggregated text (newline-separated JSON: string values never hold a raw newline). */
export function decodeCatalogRows(text: string | null | undefined): CatalogRow[] {
  if (!text) return [];
  return text.split('\n').map((line) => {
    const row = JSON.parse(line) as JsonRow;
    const bytes = row.embedding ? Buffer.from(row.embedding, 'base64') : undefined;
    // Copy: a Buffer's bytes need not be 4-byte aligned.
    const embedding = bytes && bytes.byteLength > 0 && bytes.byteLength % 4 === 0 ? new Float32Array(Uint8Array.from(bytes).buffer) : undefined;
    const product = toProduct({ ...row, tags: row.tags ?? [] } as unknown as ProductRecord);
    return { product, embedding, embeddingModel: row.model ?? undefined };
  });
}
