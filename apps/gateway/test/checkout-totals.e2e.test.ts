/**
 * A checkout session's totals through real HTTP on a real database (the shop of
 * test/support/checkout-shop.ts): shipping and its free threshold, tax by address (taxable items
 * only, never shipping, rounded once per session), decimal sums, JPY and KWD exponents, and the
 * operator's own tax table and flat shipping (TAX_RATES, SHIPPING_FLAT_RATE, SHIPPING_FREE_FROM).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCalls, SF_ADDRESS, type CheckoutCalls } from './support/checkout.js';
import { openSession, startCheckoutShop } from './support/checkout-shop.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let api: CheckoutCalls;

beforeAll(async () => {
  ({ gateway, api } = await startCheckoutShop());
});

afterAll(() => gateway?.close());

const open = (body: Record<string, unknown>) => openSession(api, body);

describe('totals', () => {
  it.each([
    ['below the free-shipping threshold', [{ product_id: 'chair', quantity: 4 }], 'standard', 5, 42.68],
    ['exactly at the threshold', [{ product_id: 'food', quantity: 1 }, { product_id: 'shirt', quantity: 1 }], 'standard', 0, 50],
    ['above it', [{ product_id: 'shirt', variant_sku: 'shirt-l', quantity: 3 }], 'standard', 0, 67.5],
    ['when nothing ships', [{ product_id: 'ebook' }, { product_id: 'gift-card' }], 'none', 0, 37],
    ['when one item of several ships', [{ product_id: 'ebook' }, { product_id: 'chair' }], 'standard', 5, 22.67],
  ])('ships %s', async (_name, items, method, amount, subtotal) => {
    const session = await open({ items });
    expect(session.shipping).toEqual({ method, amount, currency: 'USD' });
    expect(session.amounts).toMatchObject({ subtotal, shipping: amount, total: Math.round((subtotal + amount) * 100) / 100 });
  });

  it.each([
    [{ country: 'US', state: 'CA' }, 0.0725, 7.25],
    [{ country: 'us', state: 'ny' }, 0.04, 4],
    [{ country: 'US', state: 'TX' }, 0.0625, 6.25],
    [{ country: 'US', state: 'OR' }, 0, 0],
    [{ country: 'US' }, 0, 0],
    [{ country: 'GB' }, 0.2, 20],
    [{ country: 'DE', state: 'BE' }, 0.19, 19],
    [{ country: 'FR' }, 0.2, 20],
    [{ country: 'JP' }, 0.1, 10],
    [{ country: 'CH' }, 0, 0],
    [{ city: 'Nowhere' }, 0, 0],
  ])('taxes an address in %o at %d', async (address, rate, tax) => {
    const session = await open({ items: [{ product_id: 'shirt', quantity: 5 }], shipping_address: address });
    expect(session.tax).toEqual({ rate, amount: tax, currency: 'USD' });
    expect(session.amounts).toEqual({ subtotal: 100, discount: 0, tax, shipping: 0, total: 100 + tax, currency: 'USD' });
  });

  it('has no tax without an address', async () => {
    const session = await open({ items: [{ product_id: 'shirt', quantity: 5 }] });
    expect(session.tax).toEqual({ rate: 0, amount: 0, currency: 'USD' });
  });

  it('taxes taxable items only, never shipping', async () => {
    const session = await open({ items: [{ product_id: 'chair', quantity: 2 }, { product_id: 'ebook' }], shipping_address: SF_ADDRESS });
    // 21.34 × 0.0725 = 1.54715 → 1.55; the ebook (12.00) and shipping (5.00) are not taxed.
    expect(session.amounts).toEqual({ subtotal: 33.34, discount: 0, tax: 1.55, shipping: 5, total: 39.89, currency: 'USD' });
  });

  it('rounds tax half up once per session, not per line', async () => {
    const session = await open({ items: [{ product_id: 'penny' }, { product_id: 'penny' }], shipping_address: { country: 'GB' } });
    // per line 0.006 would round to 0.01 + 0.01; once per session 0.012 → 0.01.
    expect(session.amounts).toEqual({ subtotal: 0.06, discount: 0, tax: 0.01, shipping: 5, total: 5.07, currency: 'USD' });
  });

  it('adds decimal amounts without float error', async () => {
    const session = await open({ items: [{ product_id: 'tenth', quantity: 3 }] });
    expect(session.line_items[0]!.subtotal).toBe(0.3);
    expect(session.amounts.total).toBe(5.3);
  });

  it('counts JPY in whole yen (exponent 0), with the default 5 / 50 shipping in yen', async () => {
    const cheap = await open({ items: [{ product_id: 'teapot' }], shipping_address: { country: 'JP' } });
    expect(cheap.amounts).toEqual({ subtotal: 30, discount: 0, tax: 3, shipping: 5, total: 38, currency: 'JPY' });
    const dear = await open({ items: [{ product_id: 'kettle', quantity: 3 }, { product_id: 'teapot' }], shipping_address: { country: 'JP' } });
    expect(dear.amounts).toEqual({ subtotal: 4530, discount: 0, tax: 453, shipping: 0, total: 4983, currency: 'JPY' });
    expect(dear.shipping.currency).toBe('JPY');
    expect(dear.line_items.every((line) => line.currency === 'JPY')).toBe(true);
  });

  it('counts KWD in fils (exponent 3)', async () => {
    const session = await open({ items: [{ product_id: 'dates', quantity: 3 }], shipping_address: { country: 'DE' } });
    // 3.705 × 0.19 = 0.70395 → 0.704
    expect(session.amounts).toEqual({ subtotal: 3.705, discount: 0, tax: 0.704, shipping: 5, total: 9.409, currency: 'KWD' });
  });
});

describe('pricing settings', () => {
  it('prices with the operator’s tax table and flat shipping (TAX_RATES, SHIPPING_FLAT_RATE, SHIPPING_FREE_FROM)', async () => {
    const configured = await startTestGateway({
      env: { TAX_RATES: 'US-CA=0.1,ca=0.05', SHIPPING_FLAT_RATE: '7.5', SHIPPING_FREE_FROM: 'never' },
      db: gateway.db,
    });
    try {
      const calls = checkoutCalls(configured.url, await configured.createKey({ merchantIds: ['shop'] }));
      const inCalifornia = await calls.create({ items: [{ product_id: 'chair', quantity: 10 }], shipping_address: SF_ADDRESS });
      expect(inCalifornia.body.checkout_session.amounts).toEqual({ subtotal: 106.7, discount: 0, tax: 10.67, shipping: 7.5, total: 124.87, currency: 'USD' });
      const inCanada = await calls.create({ items: [{ product_id: 'chair' }], shipping_address: { ...SF_ADDRESS, country: 'CA', state: 'ON' } });
      expect(inCanada.body.checkout_session.tax).toEqual({ rate: 0.05, amount: 0.53, currency: 'USD' });
      const inTexas = await calls.create({ items: [{ product_id: 'chair' }], shipping_address: { ...SF_ADDRESS, state: 'TX' } });
      expect(inTexas.body.checkout_session.tax.rate).toBe(0); // the table replaces the defaults as a whole
    } finally {
      await configured.close();
    }
  });
});
