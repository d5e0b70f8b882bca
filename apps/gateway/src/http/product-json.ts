/**
 * Catalog answers as JSON text (the HTTP side's encoding), each product serialized once (or never:
 * a product the read model decoded from its text is that text). The read
 * model's products are immutable (a change replaces the object), so a product's text is remembered
 * beside the object itself (a WeakMap: it goes when the product does) and a listing is its products'
 * texts joined. A search hit (catalog/shown-items.ts) is its product's text with `similarity_score`
 * appended — byte for byte what JSON.stringify of `{ ...product, similarity_score }` gives — and a
 * list shown again and again (a remembered answer's items) is joined once.
 *
 *   res.setHeader('Content-Type', JSON_CONTENT_TYPE).send(searchResponseBody(await catalog.search(…)));
 */
import { decodedText, isRememberedList, scoredFrom } from '../catalog/shown-items.js';
import type { Product, ProductSearchResponse } from '../contract-types.js';

const texts = new WeakMap<object, string>();
/** The items of lists shown again and again (catalog/shown-items.ts), by list: made once, as bytes. */
const listBytes = new WeakMap<readonly Product[], Buffer>();

export function productJson(product: Product): string {
  let text = texts.get(product) ?? decodedText(product);
  if (text !== undefined) return text;
  const base = scoredFrom(product);
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

function itemsBytes(items: readonly Product[]): Buffer {
  const known = listBytes.get(items);
  if (known) return known;
  const bytes = Buffer.from(items.map(productJson).join(','));
  if (isRememberedList(items)) listBytes.set(items, bytes);
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
