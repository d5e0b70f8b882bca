import { describe, expect, it } from 'vitest';
import type { Product, ProductSearchResponse } from '../contract/types.js';
import { decodedProduct, rememberedList, scored, scoredFrom } from '../catalog/shown-items.js';
import { productBytes, productJson, searchResponseBody } from './product-json.js';

const product = (id: string, extra: Partial<Product> = {}): Product => ({
  id,
  title: `Tïtle "${id}" \u2028`,
  description: 'a\nb',
  vendor: 'V',
  category: 'C',
  price: 1.1,
  currency: 'USD',
  availability: { status: 'in_stock', quantity: 3, policy: 'deny' },
  tags: ['x'],
  attributes: { color: ['Red'] },
  images: [],
  variants: [],
  ...extra,
});

describe('catalog JSON text', () => {
  it('is what JSON.stringify gives, for a product and a scored hit', () => {
    const p = product('a');
    expect(productJson(p)).toBe(JSON.stringify(p));
    expect(productJson(p)).toBe(productJson(p));
    expect(productBytes(p).toString()).toBe(JSON.stringify(p));
    expect(productBytes(p)).toBe(productBytes(p));
    for (const score of [0, 1, 0.123456789, 1e-7]) {
      const hit = scored(p, score);
      expect(productJson(hit)).toBe(JSON.stringify(hit));
    }
  });

  it('is a whole search response as JSON.stringify gives it, with or without extra fields', () => {
    const response: ProductSearchResponse = { items: [scored(product('a'), 0.5), product('b')], page: 1, page_size: 10, total: 2, version: '2026-11-01', generated_at: '2026-11-25T00:00:00.000Z' };
    expect(searchResponseBody(response).toString()).toBe(JSON.stringify(response));
    const withExtra = { ...response, query_understanding: { text: 'lamp', max_price: 50 } };
    expect(searchResponseBody(withExtra).toString()).toBe(JSON.stringify(withExtra));
    expect(searchResponseBody({ ...response, items: [] }).toString()).toBe(JSON.stringify({ ...response, items: [] }));
    // A remembered list: serialized once, the same bytes every time, whatever the fields beside it.
    const remembered = rememberedList([...response.items]);
    for (const page of [1, 2]) expect(searchResponseBody({ ...response, items: remembered, page }).toString()).toBe(JSON.stringify({ ...response, items: remembered, page }));
  });

  it('serializes a product again when it is another object (a change replaces the product)', () => {
    const before = product('a');
    const after = { ...before, price: 2 };
    expect(productJson(before)).not.toBe(productJson(after));
    expect(JSON.parse(productJson(after)).price).toBe(2);
  });

  it('writes hits of decoded products byte for byte, and keeps its marks out of sight', () => {
    const text = JSON.stringify(product('é', { description: '\u{1F600} ünïcode' }));
    const decoded = decodedProduct(text);
    const hit = scored(decoded, 0.25);
    expect(scoredFrom(hit)).toBe(decoded);
    const response: ProductSearchResponse = { items: [hit, decoded, scored(product('b'), 1)], page: 1, page_size: 3, total: 3, version: 'v', generated_at: 'now' };
    expect(searchResponseBody(response).toString()).toBe(JSON.stringify(response));
    productBytes(decoded);
    // The marks (a product's text, bytes and source) are no field: not in JSON, not copied by a spread, not compared.
    expect(JSON.stringify(decoded)).toBe(text);
    expect(Object.getOwnPropertySymbols({ ...hit })).toEqual([]);
    expect(decoded).toEqual(JSON.parse(text));
    expect(Object.keys(hit)).toEqual([...Object.keys(JSON.parse(text)), 'similarity_score']);
  });
});
