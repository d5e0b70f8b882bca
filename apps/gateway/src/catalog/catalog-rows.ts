/**
 * Whole products as the catalog read model loads them: every column the contract shows,
 * variants and images in order, and the persisted search embedding — one JSON text per
 * product, aggregated per batch (PGlite in particular returns one large text far faster
 * than thousands of rows, and PostgreSQL's json of float8 round-trips exactly).
 */
import type { Product } from '../contract-types.js';
import type { SearchRow } from './catalog-store.js';
import { toProduct, type ProductWithRelations } from './product-mapper.js';

/** A product, and the vector the search index needs of it (not kept by the read model). */
export interface CatalogRow {
  product: Product;
  embedding: Float32Array | undefined;
  embeddingModel: string | undefined;
}

const ROW_JSON = `json_build_object(
  'id', p.id, 'title', p.title, 'description', p.description, 'vendor', p.vendor, 'category', p.category,
  'price', p.price, 'currency', p.currency, 'tags', p.tags, 'attributes', p.attributes, 'quantity', p.quantity,
  'policy', p.policy, 'embedding', encode(p.embedding, 'base64'), 'model', p.embedding_model,
  'variants', (SELECT coalesce(json_agg(json_build_object('sku', v.sku, 'title', v.title, 'price', v.price,
      'currency', v.currency, 'requiresShipping', v.requires_shipping, 'taxable', v.taxable, 'weightGrams', v.weight_grams,
      'weightUnit', v.weight_unit, 'attributes', v.attributes, 'quantity', v.quantity, 'policy', v.policy) ORDER BY v.position), '[]')
    FROM variants v WHERE v.merchant_id = p.merchant_id AND v.product_id = p.id),
  'images', (SELECT coalesce(json_agg(json_build_object('url', i.url, 'altText', i.alt_text, 'position', i.position) ORDER BY i.position), '[]')
    FROM images i WHERE i.merchant_id = p.merchant_id AND i.product_id = p.id))::text`;

/** One page of a merchant's products after id $2 (keyset, in the primary key's order), at most $3. Params: merchant, after, limit. */
export const CATALOG_PAGE_SQL = `SELECT string_agg(${ROW_JSON}, chr(10) ORDER BY p.id) AS rows FROM (
  SELECT * FROM products WHERE merchant_id = $1 AND id > $2 ORDER BY id LIMIT $3) AS p`;

/** The named products. Params: merchant, ids (text[]). */
export const CATALOG_BY_ID_SQL = `SELECT string_agg(${ROW_JSON}, chr(10)) AS rows FROM products AS p WHERE p.merchant_id = $1 AND p.id = ANY($2::text[])`;

interface JsonRow extends Omit<ProductWithRelations, 'embedding' | 'embeddingModel' | 'merchantId' | 'createdAt' | 'updatedAt'> {
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
    const product = toProduct({ ...row, tags: row.tags ?? [] } as unknown as ProductWithRelations);
    return { product, embedding, embeddingModel: row.model ?? undefined };
  });
}

/** What the search index needs of a loaded product: the product's own strings, not copies. */
export function toSearchRow({ product, embedding, embeddingModel }: CatalogRow): SearchRow {
  const { id, title, description, vendor, category, tags, attributes, price } = product;
  return { id, title, description, vendor, category, tags, attributes, price, embedding, embeddingModel };
}
