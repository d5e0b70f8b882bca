/**
 * A batch of products as column arrays: one array parameter per column, which the writer's
 * INSERT … SELECT FROM unnest(…) turns back into rows. Cheaper for PostgreSQL than one JSON
 * document per table (jsonb_to_recordset parses every row's object, its keys included), and
 * the same on node-postgres and PGlite: both send an array of text, numbers or booleans as an
 * array literal. Values that are themselves arrays or objects (tags, attributes) go as their
 * text (an array literal, JSON), cast in SQL; a vector goes as base64 of its float32 bytes.
 */
import type { Product } from '../../contract/types.js';

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

/** JSON escapes that PostgreSQL's array syntax reads otherwise (\n, \t, \uXXXX …): only \" and \\ mean the same in both. */
const ESCAPE_OTHER_THAN_QUOTE_OR_BACKSLASH = /\\[^"\\]/;

type Scalar = string | number | boolean | null;

/**
 * A column as one parameter: the PostgreSQL array literal, made by JSON.stringify (native, several times
 * cheaper than the drivers' element-by-element escaping in JavaScript) wherever JSON writes it as PostgreSQL
 * reads it — strings quoted with only \" and \\ escaped, null, numbers, booleans. A column with any other
 * escape (a control character, a lone surrogate) goes as the array itself, for the driver to write.
 * Numbers go as JSON writes them, as the import always stored them (JSON had no NaN or Infinity: null).
 */
export function arrayParameter<T extends Scalar>(values: readonly T[]): string | readonly T[] {
  const json = JSON.stringify(values);
  return ESCAPE_OTHER_THAN_QUOTE_OR_BACKSLASH.test(json) ? values : `{${json.slice(1, -1)}}`;
}

/** A PostgreSQL array literal of text: every element quoted, with `"` and `\` escaped. */
export function textArrayLiteral(values: readonly string[]): string {
  const literal = arrayParameter(values);
  return typeof literal === 'string' ? literal : `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** Every column of a batch as its parameter (`arrayParameter`). */
export function asParameters<T extends Record<keyof T, readonly Scalar[]>>(columns: T): { [K in keyof T]: string | T[K] } {
  return Object.fromEntries(Object.entries(columns).map(([name, values]) => [name, arrayParameter(values as readonly Scalar[])])) as {
    [K in keyof T]: string | T[K];
  };
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
