/**
 * The shop of the checkout tests (checkout-create, checkout-totals, checkout-sessions): a real
 * gateway with merchant `shop`'s catalog — variants with and without shipping or tax, tiny and
 * fractional prices, a sold-out product, EUR, JPY and KWD prices, a product without variants — and
 * merchant `other`'s `foreign`; an SDK client and plain calls with a `shop` key, calls with an
 * `other` key. `openSession()` creates a session and expects 201.
 */
import { createClient, type Client } from '@commerce-gateway/sdk';
import { expect } from 'vitest';
import { bare, checkoutCalls, stocked, type CheckoutCalls } from './checkout.js';
import { startTestGateway, type TestGateway } from './test-gateway.js';

export const catalog = [
  stocked('chair', [{ price: 10.67 }]),
  stocked('shirt', [{ sku: 'shirt-s', price: 20 }, { sku: 'shirt-l', price: 22.5 }]),
  stocked('ebook', [{ price: 12, requires_shipping: false, taxable: false }]),
  stocked('gift-card', [{ price: 25, requires_shipping: false }]),
  stocked('food', [{ price: 30, taxable: false }]),
  stocked('penny', [{ price: 0.03 }]),
  stocked('tenth', [{ price: 0.1 }]),
  stocked('sold-out', [{ price: 5, quantity: 0 }]),
  stocked('euro-mug', [{ price: 9.99, currency: 'EUR' }]),
  stocked('teapot', [{ price: 30, currency: 'JPY' }]),
  stocked('kettle', [{ price: 1500, currency: 'JPY' }]),
  stocked('dates', [{ price: 1.235, currency: 'KWD' }]),
  bare('poster', 7.5, 4),
];

export interface CheckoutShop {
  gateway: TestGateway;
  /** The SDK's client, with a key of `shop`. */
  client: Client;
  /** Plain checkout calls with a key of `shop`. */
  api: CheckoutCalls;
  /** Plain checkout calls with a key of `other`. */
  otherShop: CheckoutCalls;
}

/** Starts the gateway and loads both merchants' catalogs (for a file's beforeAll; close `gateway` after). */
export async function startCheckoutShop(): Promise<CheckoutShop> {
  const gateway = await startTestGateway();
  try {
    await gateway.importProducts('shop', catalog);
    await gateway.importProducts('other', [stocked('foreign')]);
    const key = await gateway.createKey({ merchantIds: ['shop'] });
    const client = createClient({ baseUrl: gateway.url, headers: { 'X-ACP-API-Key': key } });
    const api = checkoutCalls(gateway.url, key);
    const otherShop = checkoutCalls(gateway.url, await gateway.createKey({ merchantIds: ['other'] }));
    return { gateway, client, api, otherShop };
  } catch (error) {
    await gateway.close();
    throw error;
  }
}

/** Creates a session through `api`, expects 201 and returns it. */
export async function openSession(api: CheckoutCalls, body: Record<string, unknown>) {
  const reply = await api.create(body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.checkout_session;
}
