/**
 * Catalog answers as JSON text (the HTTP side's encoding), each product serialized once (or never:
 * a product the read model decoded from its text is that text). The read
 * model's products are immutable (a change replaces the object), so a product's text is remembered
 * on the object itself (a hidden property: it goes when the product does) and a listing is its products'
 * texts joined. A search hit (catalog/shown-items.ts) is its product's text with `similarity_score`
 * appended — byte for byte what JSON.stringify of `{ ...product, similarity_score }` gives — and a
 * list shown again and again (a remembered answer's items) is joined once.
 *
 *   res.setHeader('Content-Type', JSON_CONTENT_TYPE).send(searchResponseBody(await catalog.search(…)));
 */
import { decodedText, isRememberedList, scoredFrom } from '../catalog/shown-items.js';
import { mark, marked } from '../kernel/hidden-property.js';
import type { Product, ProductSearchResponse } from '../contract/types.js';

/** A product's text, an item list's bytes and a product's bytes, each kept on its object (../hidden-property.ts). */
const TEXT = Symbol('JSON text');
const BYTES = Symbol('JSON bytes');

export function productJson(product: Product): string {
  const text = marked<string>(product, TEXT) ?? decodedText(product);
  if (text !== undefined) return text;
  const base = scoredFrom(product);
  const made = base ? `${productJson(base).slice(0, -1)},"similarity_score":${JSON.stringify(product.similarity_score)}}` : JSON.stringify(product);
  mark(product, TEXT, made);
  return made;
}

/** A product as the bytes GET /acp/products/{id} sends: made once for a product asked for by id. */
export function productBytes(product: Product): Buffer {
  const known = marked<Buffer>(product, BYTES);
  if (known) return known;
  const bytes = Buffer.from(productJson(product));
  mark(product, BYTES, bytes);
  return bytes;
}

/**
 * The items' bytes, written straight into one buffer (no joined text): a search hit is its
 * product's text with the closing brace overwritten by `,"similarity_score":…}`. Made once for a
 * list shown again and again (catalog/shown-items.ts).
 */
function itemsBytes(items: readonly Product[]): Buffer {
  const known = marked<Buffer>(items, BYTES);
  if (known) return known;
  const texts: string[] = [];
  const tails: (string | undefined)[] = [];
  let length = Math.max(0, items.length - 1);
  for (const item of items) {
    const base = scoredFrom(item);
    const text = productJson(base ?? item);
    const tail = base ? `,"similarity_score":${JSON.stringify(item.similarity_score)}}` : undefined;
    texts.push(text);
    tails.push(tail);
    length += Buffer.byteLength(text) + (tail === undefined ? 0 : tail.length - 1);
  }
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  texts.forEach((text, i) => {
    if (i > 0) bytes[at++] = 0x2c; // ,
    at += bytes.write(text, at);
    const tail = tails[i];
    if (tail !== undefined) at += bytes.write(tail, at - 1) - 1;
  });
  if (isRememberedList(items)) mark(items, BYTES, bytes);
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
