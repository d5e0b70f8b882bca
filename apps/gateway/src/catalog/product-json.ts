/**
 * Catalog answers as JSON text, each product serialized once. The read model's products are
 * immutable (a change replaces the object), so a product's text is remembered beside the object
 * itself (a WeakMap: it goes when the product does) and a listing is its products' texts joined.
 * A search hit is its product's text with `similarity_score` appended — byte for byte what
 * JSON.stringify of `{ ...product, similarity_score }` gives — and a list shown again and again
 * (a remembered search answer's items) is joined once.
 *
 *   res.setHeader('Content-Type', JSON_CONTENT_TYPE).send(searchResponseBody(await catalog.search(…)));
 */
import type { Product, ProductSearchResponse } from '../contract-types.js';

const texts = new WeakMap<object, string>();
const scoredFrom = new WeakMap<object, Product>();
/** The items of lists shown again and again (see rememberedList), by list: made once, as bytes. */
const listBytes = new WeakMap<readonly Product[], Buffer | null>();

/** A search hit: the product with its score, remembered as made from that product. */
export function scored(product: Product, score: number): Product {
  const hit = { ...product, similarity_score: score };
  if (!Object.hasOwn(product, 'similarity_score')) scoredFrom.set(hit, product);
  return hit;
}

export function productJson(product: Product): string {
  let text = texts.get(product);
  if (text !== undefined) return text;
  const base = scoredFrom.get(product);
  text = base ? `${productJson(base).slice(0, -1)},"similarity_score":${JSON.stringify(product.similarity_score)}}` : JSON.stringify(product);
  texts.set(product, text);
  return text;
}

const bytesOf = new WeakMap<object, Buffer>();

/** A product as the bytes GET /acp/products/{id} sends: made once for a product asked for by id. */
export function productBytes(product: Product): Buffer {
  let bytes = bytesOf.get(product);
  if (bytes === undefined) {
    bytes = Buffer.from(productJson(product));
    bytesOf.set(product, bytes);
  }
  return bytes;
}

/** Marks a list of products (never modified) as one that will be shown again: its items are then serialized once. */
export function rememberedList<T extends readonly Product[]>(items: T): T {
  listBytes.set(items, null);
  return items;
}

function itemsBytes(items: readonly Product[]): Buffer {
  const known = listBytes.get(items);
  if (known) return known;
  const bytes = Buffer.from(items.map(productJson).join(','));
  if (known === null) listBytes.set(items, bytes);
  return bytes;
}

const ITEMS_OPEN = Buffer.from('{"items":[');

/** What `res.json` names its answers. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A listing or search answer as the bytes `res.json` would send (the items first, then the other
 * fields in order). Bytes, not text: Express would otherwise encode a long text again on every send.
 */
export function searchResponseBody(response: ProductSearchResponse): Buffer {
  const { items, ...rest } = response;
  const tail = JSON.stringify(rest);
  return Buffer.concat([ITEMS_OPEN, itemsBytes(items), Buffer.from(tail === '{}' ? ']}' : `],${tail.slice(1)}`)]);
}
