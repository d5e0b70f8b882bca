/**
 * A batch of products as column arrays: one array parameter per column, which the writer's
 * INSERT … SELECT FROM unnest(…) turns back into rows. Cheaper for PostgreSQL than one JSON
 * document per table (jsonb_to_recordset parses every row's object, its keys included), and
 * the same on node-postgres and PGlite: both send an array of text, numbers or booleans as an
 * array literal. Values that are themselves arrays or objects (tags, attributes) go as their
 * text (an array literal, JSON), cast in SQL; a vector goes as base64 of its float32 bytes.
 */
import type { Product } from '../../contract-types.js';

export interface ProductColumns {
  id: string[];
  title: string[];
  description: string[];
  vendor: string[];
  category: string[];
  price: number[];
  currency: string[];
  /** Each product's tags as a PostgreSQL array literal (cast to text[] in SQL). */
  tags: string[];
  /** Each product's attributes as JSON (cast to jsonb in SQL). */
  attributes: string[];
  quantity: number[];
  policy: string[];
  /** Base64 of the vector's float32 little-endian bytes, or null for a product without one. */
  embedding: (string | null)[];
}

export interface VariantColumns {
  productId: string[];
  sku: string[];
  position: number[];
  title: string[];
  price: number[];
  currency: string[];
  requiresShipping: (boolean | null)[];
  taxable: (boolean | null)[];
  weightGrams: (number | null)[];
  weightUnit: (string | null)[];
  attributes: string[];
  quantity: number[];
  policy: string[];
}

export interface ImageColumns {
  productId: string[];
  position: number[];
  url: string[];
  altText: (string | null)[];
}

/** A PostgreSQL array literal of text: every element quoted, with `"` and `\` escaped. */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

function base64(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
}

/** `vectors[i]` (when given) is product i's search vector. */
export function productColumns(products: readonly Product[], vectors: readonly (Float32Array | undefined)[]): ProductColumns {
  const columns: ProductColumns = {
    id: [],
    title: [],
    description: [],
    vendor: [],
    category: [],
    price: [],
    currency: [],
    tags: [],
    attributes: [],
    quantity: [],
    policy: [],
    embedding: [],
  };
  products.forEach((p, i) => {
    columns.id.push(p.id);
    columns.title.push(p.title);
    columns.description.push(p.description);
    columns.vendor.push(p.vendor);
    columns.category.push(p.category);
    columns.price.push(p.price);
    columns.currency.push(p.currency);
    columns.tags.push(textArrayLiteral(p.tags));
    columns.attributes.push(JSON.stringify(p.attributes));
    columns.quantity.push(p.availability.quantity);
    columns.policy.push(p.availability.policy);
    const vector = vectors[i];
    columns.embedding.push(vector ? base64(vector) : null);
  });
  return columns;
}

export function variantColumns(products: readonly Product[]): VariantColumns {
  const columns: VariantColumns = {
    productId: [],
    sku: [],
    position: [],
    title: [],
    price: [],
    currency: [],
    requiresShipping: [],
    taxable: [],
    weightGrams: [],
    weightUnit: [],
    attributes: [],
    quantity: [],
    policy: [],
  };
  for (const p of products) {
    p.variants.forEach((v, position) => {
      columns.productId.push(p.id);
      columns.sku.push(v.sku);
      columns.position.push(position);
      columns.title.push(v.title);
      columns.price.push(v.price);
      columns.currency.push(v.currency);
      columns.requiresShipping.push(v.requires_shipping ?? null);
      columns.taxable.push(v.taxable ?? null);
      columns.weightGrams.push(v.weight_grams ?? null);
      columns.weightUnit.push(v.weight_unit ?? null);
      columns.attributes.push(JSON.stringify(v.attributes));
      columns.quantity.push(v.inventory.quantity);
      columns.policy.push(v.inventory.policy);
    });
  }
  return columns;
}

export function imageColumns(products: readonly Product[]): ImageColumns {
  const columns: ImageColumns = { productId: [], position: [], url: [], altText: [] };
  for (const p of products) {
    p.images.forEach((image, index) => {
      columns.productId.push(p.id);
      columns.position.push(image.position ?? index);
      columns.url.push(image.url);
      columns.altText.push(image.alt_text ?? null);
    });
  }
  return columns;
}
