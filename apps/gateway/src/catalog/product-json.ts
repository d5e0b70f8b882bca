/**
 * Catalog answers as JSON text, each product serialized once. The read model's products are
 * immutable (a change replaces the object), so a product's text is remembered beside the object
 * itself (a WeakMap: it goes when the product does) and a listing is its products' texts joined.
 * A search hit is its product's text with `similarity_score` appended — byte for byte what
 * JSON.stringify of `{ ...product, similarity_score }` gives.
 *
 *   res.type('application/json').send(searchResponseJson(await catalog.search(…)));
 */
import type { Product, ProductSearchResponse } from '../contract-types.js';

const texts = new WeakMap<object, string>();
const scoredFrom = new WeakMap<object, Product>();

/** A search hit: the product with its score, remembered as made from that product. */
export function scored(product: Product, score: number): Product {
  const hit = { ...product, similarity_score: score };
  if (!Object.hasOwn(product, 'similarity_score')) scoredFrom.set(hit, product);
  return hit;
}

export function productJson(product: Product): string {
  const base = scoredFrom.get(product);
  if (base) return `${productJson(base).slice(0, -1)},"similarity_score":${JSON.stringify(product.similarity_score)}}`;
  let text = texts.get(product);
  if (text === undefined) texts.set(product, (text = JSON.stringify(product)));
  return text;
}

export function searchResponseJson(response: ProductSearchResponse): string {
  const { items, ...rest } = response;
  const tail = JSON.stringify(rest);
  return `{"items":[${items.map(productJson).join(',')}]${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
}
