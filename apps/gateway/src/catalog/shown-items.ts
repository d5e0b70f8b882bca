/**
 * Items the catalog shows, marked for the HTTP side's JSON encoding (http/product-json.ts), which
 * makes each product's text once: a search hit remembers the product it was made from (its text
 * is that product's with `similarity_score` appended), and a list that will be shown again and
 * again (a remembered answer's items, a listing page) is marked so that its items are encoded once.
 * Products and marked lists are never modified: a change replaces them. A product the read model
 * decodes from its JSON text (read-model/merchant-catalog.ts) keeps that text: it is the product's JSON.
 */
import type { Product } from '../contract-types.js';

const hitOf = new WeakMap<object, Product>();
const decodedFrom = new WeakMap<object, string>();

/** A product decoded from its JSON text (JSON.stringify of a product), which it is remembered to be. */
export function decodedProduct(text: string): Product {
  const product = JSON.parse(text) as Product;
  decodedFrom.set(product, text);
  return product;
}

/** The JSON text a product was decoded from (undefined for one made otherwise). */
export function decodedText(product: Product): string | undefined {
  return decodedFrom.get(product);
}
const shownAgain = new WeakSet<readonly Product[]>();

/** A search hit: the product with its score, remembered as made from that product. */
export function scored(product: Product, score: number): Product {
  const hit = { ...product, similarity_score: score };
  if (!Object.hasOwn(product, 'similarity_score')) hitOf.set(hit, product);
  return hit;
}

/** The product a search hit was made from (undefined for a product that is no hit). */
export function scoredFrom(hit: Product): Product | undefined {
  return hitOf.get(hit);
}

/** Marks a list of products (never modified) as one that will be shown again. */
export function rememberedList<T extends readonly Product[]>(items: T): T {
  shownAgain.add(items);
  return items;
}

export function isRememberedList(items: readonly Product[]): boolean {
  return shownAgain.has(items);
}
