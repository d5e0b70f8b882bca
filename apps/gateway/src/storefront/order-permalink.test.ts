import { describe, expect, it } from 'vitest';
import { orderPermalink } from './order-permalink.js';

describe('orderPermalink', () => {
  it.each([
    ['ORDER_URL_TEMPLATE first', { orderUrlTemplate: 'https://shop.example/account/orders/{order_id}', storefrontUrl: 'https://other.example' }, 'https://shop.example/account/orders/ord_1'],
    ['its {merchant_id} too', { orderUrlTemplate: 'https://{merchant_id}.shops.example/o/{order_id}' }, 'https://acme.shops.example/o/ord_1'],
    ['else the storefront', { storefrontUrl: 'https://{merchant_id}.shops.example/' }, 'https://acme.shops.example/orders/ord_1'],
    ['else a placeholder that never resolves', {}, 'https://acme.storefront.invalid/orders/ord_1'],
  ])('%s', (_name, settings, expected) => {
    expect(orderPermalink(settings, 'Acme', 'ord_1')).toBe(expected);
  });

  it('encodes the order id', () => {
    expect(orderPermalink({ orderUrlTemplate: 'https://shop.example/orders/{order_id}' }, 'acme', 'a/b c')).toBe('https://shop.example/orders/a%2Fb%20c');
  });
});
