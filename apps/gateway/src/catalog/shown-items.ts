/**
 * Items the catalog shows, marked for the HTTP side's JSON encoding (api/product-json.ts), which
 * makes each product's text once: a search hit remembers the product it was made from (its text
 * is that product's with `similarity_score` appended), and a list that will be shown again and
 * again (a remembered answer's items, a listing page) is marked so that its items are encoded once.
 * Products and marked lists are never modified: a change replaces them. A product the read model
 * decodes from its JSON text (read-model/merchant-catalog.ts) keeps that text: it is the product's JSON.
 * The marks are hidden properties of the objects themselves (../hidden-property.ts).
 */
import type { Product } from '../contract/types.js';
import { mark, marked } from '../kernel/hidden-property.js';

const DECODED_FROM = Symbol('the JSON text a product was decoded from');
const HIT_OF = Symbol('the product a search hit was made from');
const SHOWN_AGAIN = Symbol('a list shown again and again');

/** A product decoded from its JSON text (JSON.stringify of a product), which it is remembered to be. */
export function decodedProduct(text: string): Product {
  return mark(JSON.parse(text) as Product, DECODED_FROM, text);
}

/** The JSON text a product was decoded from (undefined for one made otherwise). */
export function decodedText(product: Product): string | undefined {
  return marked(product, DECODED_FROM);
}

/** A search hit: the product with its score, remembered as made from that product. */
export function scored(product: Product, score: number): Product {
  const hit = { ...product, similarity_score: score };
  return Object.hasOwn(product, 'similarity_score') ? hit : mark(hit, HIT_OF, product);
}

/** The product a search hit was made from (undefined for a product that is no hit). */
export function scoredFrom(hit: Product): Product | undefined {
  return marked(hit, HIT_OF);
}

/** Marks a list of products (never modified) as one that will be shown again. */
export function rememberedList<T extends readonly Product[]>(items: T): T {
  return mark(items, SHOWN_AGAIN, true);
}

export function isRememberedList(items: readonly Product[]): boolean {
  return marked(items, SHOWN_AGAIN) === true;
}
