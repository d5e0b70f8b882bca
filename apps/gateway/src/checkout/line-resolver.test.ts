import { describe, expect, it } from 'vitest';
import { InvalidRequestError, NotFoundError } from '../kernel/errors.js';
import { resolveLines, type CatalogProduct } from './line-resolver.js';

const variant = (sku: string, price: number, currency = 'USD') => ({ sku, price, currency, requiresShipping: null, taxable: null });
const catalog = new Map<string, CatalogProduct>([
  ['shirt', { id: 'shirt', title: 'Shirt', price: 20, currency: 'USD', variants: [variant('shirt-s', 20), { ...variant('shirt-l', 22.5), requiresShipping: false, taxable: false }] }],
  ['poster', { id: 'poster', title: 'Poster', price: 7.5, currency: 'USD', variants: [] }],
  ['mug', { id: 'mug', title: 'Mug', price: 9.99, currency: 'EUR', variants: [variant('mug-1', 9.99, 'EUR')] }],
]);

describe('resolveLines', () => {
  it('prices each line from the catalog: first variant by default, the product itself without variants', () => {
    const cart = resolveLines([{ product_id: 'shirt' }, { product_id: 'shirt', variant_sku: 'shirt-l', quantity: 2 }, { product_id: 'poster', quantity: 3 }], catalog);
    expect(cart).toEqual({
      currency: 'USD',
      lines: [
        { productId: 'shirt', variantSku: 'shirt-s', title: 'Shirt', category: null, quantity: 1, unitAmount: 2000n, requiresShipping: true, taxable: true },
        { productId: 'shirt', variantSku: 'shirt-l', title: 'Shirt', category: null, quantity: 2, unitAmount: 2250n, requiresShipping: false, taxable: false },
        { productId: 'poster', variantSku: 'poster', title: 'Poster', category: null, quantity: 3, unitAmount: 750n, requiresShipping: true, taxable: true },
      ],
    });
  });

  it.each([
    [[{ product_id: 'nope' }], NotFoundError, 'items[0].product_id'],
    [[{ product_id: 'shirt', variant_sku: 'poster' }], InvalidRequestError, 'items[0].variant_sku'],
    [[{ product_id: 'poster', variant_sku: 'poster-1' }], InvalidRequestError, 'items[0].variant_sku'],
    [[{ product_id: 'shirt', quantity: 0 }], InvalidRequestError, 'items[0].quantity'],
    [[{ product_id: 'shirt', quantity: 1000 }], InvalidRequestError, 'items[0].quantity'],
    [[{ product_id: 'shirt' }, { product_id: 'mug' }], InvalidRequestError, 'items[1]'],
    [[], InvalidRequestError, 'items'],
    [Array.from({ length: 101 }, () => ({ product_id: 'shirt' })), InvalidRequestError, 'items'],
  ])('refuses %o', (items, type, param) => {
    expect(() => resolveLines(items, catalog)).toThrow(type);
    expect(() => resolveLines(items, catalog)).toThrow(expect.objectContaining({ param }));
  });
});
