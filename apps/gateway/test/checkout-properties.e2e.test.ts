/**
 * Properties of the totals the gateway answers, over random carts, addresses and
 * currencies, through real HTTP (create, then PATCH to another address).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currencyExponent } from '../src/kernel/money/currency-exponents.js';
import { RateTableTaxProvider } from '../src/checkout/pricing/tax-provider.js';
import type { Address, CheckoutSession, Product } from '../src/contract/types.js';
import { checkoutCalls, stocked, type CheckoutCalls } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'KRW', 'KWD'] as const;
const PER_CURRENCY = 6;
const RUNS = Number(process.env.CHECKOUT_PROPERTY_RUNS ?? 25);

let gateway: TestGateway;
let api: CheckoutCalls;

/** A random but reproducible catalog: prices exact in the currency, or with more decimals than it has. */
function randomCatalog(): Product[] {
  const flag = fc.option(fc.boolean(), { nil: undefined });
  return CURRENCIES.flatMap((currency) => {
    const scale = 10 ** currencyExponent(currency);
    const price = fc.oneof(fc.integer({ min: 0, max: 2_000_000 }).map((minor) => minor / scale), fc.double({ min: 0, max: 5_000, noNaN: true }));
    const specs = fc.sample(fc.record({ price, requires_shipping: flag, taxable: flag }), { numRuns: PER_CURRENCY, seed: 42 + currency.charCodeAt(0) });
    return specs.map((spec, i) => stocked(`${currency}-${i}`, [{ ...spec, currency, quantity: 0 }]));
  });
}

const catalog = randomCatalog();
const priceOf = new Map(catalog.map((p) => [p.id, p.variants[0]!]));

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', catalog);
  api = checkoutCalls(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
});

afterAll(() => gateway?.close());

const cartArb = fc.constantFrom(...CURRENCIES).chain((currency) =>
  fc.array(fc.record({ product_id: fc.integer({ min: 0, max: PER_CURRENCY - 1 }).map((i) => `${currency}-${i}`), quantity: fc.integer({ min: 1, max: 999 }) }), { minLength: 1, maxLength: 8 }),
);
const addressArb: fc.Arbitrary<Address | undefined> = fc.option(
  fc.record({
    line1: fc.constant('1 Main St'),
    city: fc.constant('Springfield'),
    country: fc.constantFrom('US', 'us', 'GB', 'DE', 'FR', 'JP', 'CH', 'BR'),
    state: fc.constantFrom('CA', 'ny', 'TX', 'OR', 'ZZ'),
  }, { requiredKeys: ['country'] }),
  { nil: undefined },
);

/** An amount as shown, in minor units; fails when it has more decimals than the currency allows. */
function minor(amount: number, currency: string): number {
  const value = amount * 10 ** currencyExponent(currency);
  const rounded = Math.round(value);
  expect(Math.abs(value - rounded), `${amount} ${currency} has a fraction of a minor unit`).toBeLessThan(1e-6);
  return rounded;
}

function checkTotals(session: CheckoutSession, address: Address | undefined): void {
  const c = session.currency;
  const { amounts } = session;
  const values = [amounts.subtotal, amounts.tax, amounts.shipping, amounts.total, ...session.line_items.flatMap((l) => [l.unit_price, l.subtotal])];
  for (const value of values) expect(value).toBeGreaterThanOrEqual(0);
  if (currencyExponent(c) === 0) for (const value of values) expect(Number.isInteger(value)).toBe(true);

  expect(minor(amounts.total, c)).toBe(minor(amounts.subtotal, c) + minor(amounts.tax, c) + minor(amounts.shipping, c));
  expect(minor(amounts.subtotal, c)).toBe(session.line_items.reduce((sum, l) => sum + minor(l.subtotal, c), 0));
  let taxable = 0;
  for (const line of session.line_items) {
    const variant = priceOf.get(line.product_id)!;
    // the catalog's price, rounded to the currency's minor unit
    expect(Math.abs(line.unit_price - variant.price)).toBeLessThanOrEqual(0.5 / 10 ** currencyExponent(c) + 1e-9);
    expect(minor(line.subtotal, c)).toBe(minor(line.unit_price, c) * line.quantity);
    if (variant.taxable !== false) taxable += minor(line.subtotal, c);
  }
  const rate = new RateTableTaxProvider().rateFor(address ?? null);
  expect(session.tax).toEqual({ rate, amount: amounts.tax, currency: c });
  expect(Math.abs(minor(amounts.tax, c) - taxable * rate)).toBeLessThanOrEqual(0.5 + taxable * 1e-12);
  const ships = session.line_items.some((l) => priceOf.get(l.product_id)!.requires_shipping !== false);
  const scale = 10 ** currencyExponent(c);
  const shipping = !ships ? 0 : minor(amounts.subtotal, c) >= 50 * scale ? 0 : 5 * scale;
  expect(session.shipping).toEqual({ method: ships ? 'standard' : 'none', amount: shipping / scale, currency: c });
}

describe('totals over random carts, addresses and currencies', () => {
  it('add up to the minor unit, are never negative, never show a fraction of a yen, and follow the tax and shipping tables', async () => {
    await fc.assert(
      fc.asyncProperty(cartArb, addressArb, addressArb, async (items, address, nextAddress) => {
        const created = await api.create({ items, ...(address ? { shipping_address: address } : {}) });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        checkTotals(created.body.checkout_session, address);
        if (!nextAddress) return;
        const updated = await api.update(created.body.checkout_session.id, { shipping_address: nextAddress });
        expect(updated.status).toBe(200);
        checkTotals(updated.body.checkout_session, nextAddress);
      }),
      { numRuns: RUNS },
    );
  });
});
