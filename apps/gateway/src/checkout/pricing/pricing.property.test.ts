/**
 * Properties of pricing over random carts, addresses and currencies, checked on the
 * session as the contract shows it (major-unit numbers), not only on minor units.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaValidator, describeErrors } from '../../contract/schema-validator.js';
import type { Address, CheckoutSession } from '../../contract/types.js';
import { resolveLines, type CatalogProduct } from '../line-resolver.js';
import { toCheckoutSession } from '../session-mapper.js';
import type { Session } from '../session.js';
import { currencyExponent } from '../../kernel/money/currency-exponents.js';
import { defaultPricing } from './default-pricing.js';
import { toMinor } from '../../kernel/money/money.js';
import { lineSubtotal, type DiscountContext } from './pricing.js';
import type { DiscountCode, Promotion } from '../../discounts/discount.js';
import { DEFAULT_TAX_RATES } from './tax-provider.js';

const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'CHF', 'SEK', 'JPY', 'KRW', 'KWD', 'BHD'] as const;
const pricing = defaultPricing();
const validSession = schemaValidator('CheckoutSession');

/** A price as a catalog holds it: usually exact in the currency, sometimes with more decimals than it has. */
const price = (currency: string) =>
  fc.oneof(
    fc.integer({ min: 0, max: 5_000_000 }).map((minor) => minor / 10 ** currencyExponent(currency)),
    fc.double({ min: 0, max: 50_000, noNaN: true, noDefaultInfinity: true }),
  );

const cart = fc.constantFrom(...CURRENCIES).chain((currency) =>
  fc.record({
    currency: fc.constant(currency),
    products: fc.array(
      fc.record({ price: price(currency), requiresShipping: fc.option(fc.boolean()), taxable: fc.option(fc.boolean()) }),
      { minLength: 1, maxLength: 30 },
    ),
    quantities: fc.array(fc.integer({ min: 1, max: 999 }), { minLength: 30, maxLength: 30 }),
  }),
);

const taxedCountries = [...new Set(Object.keys(DEFAULT_TAX_RATES).map((key) => key.slice(0, 2)))];
const address: fc.Arbitrary<Address | null> = fc.option(
  fc.record(
    {
      line1: fc.string({ maxLength: 20 }),
      city: fc.string({ maxLength: 20 }),
      country: fc.oneof(fc.constantFrom(...taxedCountries, 'us', 'jp'), fc.stringMatching(/^[A-Z]{2}$/)),
      state: fc.oneof(fc.constantFrom('CA', 'NY', 'TX', 'ca', 'OR'), fc.string({ maxLength: 3 })),
    },
    { requiredKeys: [] },
  ),
);

interface CartInput {
  currency: string;
  products: { price: number; requiresShipping: boolean | null; taxable: boolean | null }[];
  quantities: number[];
}

/** Resolves and prices the cart, and shows it as the contract's CheckoutSession. */
async function session(input: CartInput, shipTo: Address | null, discounts?: DiscountContext) {
  const catalog = new Map<string, CatalogProduct>(
    input.products.map((p, i) => [`p${i}`, { id: `p${i}`, title: `P${i}`, category: `Home > ${CATEGORIES[i % CATEGORIES.length]}`, price: p.price, currency: input.currency, variants: [{ sku: `s${i}`, price: p.price, currency: input.currency, requiresShipping: p.requiresShipping, taxable: p.taxable }] }]),
  );
  const items = input.products.map((_, i) => ({ product_id: `p${i}`, quantity: input.quantities[i]! }));
  const { currency, lines } = resolveLines(items, catalog);
  const totals = await pricing.totals(currency, lines, shipTo, { discounts });
  const now = new Date();
  const row: Session = {
    id: 'cs_test', merchantId: 'm', status: 'open', currency, shippingAddress: shipTo, shippingAddressId: null, savedAddresses: null, customer: null, customerId: null, paymentMethod: 'demo_card',
    clientSecret: 'cs_test_secret_x', shippingMethod: totals.shippingMethod, shippingAmount: totals.shipping, shippingOptions: totals.shippingOptions, taxRate: totals.taxRate,
    taxAmount: totals.tax, subtotal: totals.subtotal, discountAmount: totals.discount, total: totals.total, discountCodes: [...(discounts?.codes ?? [])], discounts: totals.discounts,
    fulfillmentOptionId: null, protocolState: null, createdAt: now, updatedAt: now, order: null,
    lineItems: lines.map((line, position) => ({ position, ...line, subtotal: lineSubtotal(line), discount: totals.lineDiscounts[position]! })),
  };
  return { totals, lines, shown: toCheckoutSession(row) };
}

const CATEGORIES = ['Chairs', 'Lamps', 'Tables'] as const;

/** A merchant's codes and promotions in the cart's currency (amounts in its minor units), and the codes a buyer asks for. */
const discountsFor = (currency: string): fc.Arbitrary<DiscountContext> => {
  const target = fc.oneof(
    fc.constant({ kind: 'cart' as const }),
    fc.array(fc.integer({ min: 0, max: 29 }), { minLength: 1, maxLength: 5 }).map((ids) => ({ kind: 'products' as const, productIds: ids.map((i) => `p${i}`) })),
    fc.subarray([...CATEGORIES], { minLength: 1 }).map((categories) => ({ kind: 'categories' as const, categories: categories.map((c) => c.toLowerCase()) })),
  );
  const value = fc.oneof(
    fc.integer({ min: 1, max: 10_000 }).map((basisPoints) => ({ kind: 'percentage' as const, basisPoints })),
    fc.bigInt({ min: 1n, max: 10_000_000n }).map((amount) => ({ kind: 'fixed' as const, amounts: { [currency]: amount } })),
  );
  const code = fc.record({ code: fc.constantFrom('A', 'B', 'C', 'D'), value, target, combinable: fc.boolean() }) as fc.Arbitrary<DiscountCode>;
  const promotion = fc.record({
    id: fc.constantFrom('p1', 'p2'),
    title: fc.constant('Promotion'),
    effect: fc.oneof(fc.constant({ kind: 'free_shipping' as const }), fc.integer({ min: 1, max: 10_000 }).map((basisPoints) => ({ kind: 'percentage' as const, basisPoints }))),
    target,
  }) as fc.Arbitrary<Promotion>;
  return fc.record({
    merchant: fc.record({ codes: fc.uniqueArray(code, { selector: (c) => c.code, maxLength: 4 }), promotions: fc.uniqueArray(promotion, { selector: (p) => p.id, maxLength: 2 }) }),
    codes: fc.array(fc.constantFrom('a', 'B', 'c', 'D', 'nope'), { maxLength: 5 }),
    now: fc.constant(new Date()),
  });
};

/** A shown amount back in minor units; throws if it has more decimals than the currency. */
function minorOf(amount: number, currency: string): bigint {
  const minor = toMinor(amount, currency);
  expect(Number(minor) / 10 ** currencyExponent(currency)).toBe(amount);
  return minor;
}

describe('pricing properties', () => {
  it('total = subtotal + tax + shipping to the minor unit, as shown; lines add up; nothing negative; the contract holds', async () => {
    await fc.assert(
      fc.asyncProperty(cart, address, async (input, shipTo) => {
        const { shown } = await session(input, shipTo);
        const c = shown.currency;
        const { amounts } = shown;
        expect(amounts.discount).toBe(0);
        expect(minorOf(amounts.total, c)).toBe(minorOf(amounts.subtotal, c) + minorOf(amounts.tax, c) + minorOf(amounts.shipping, c));
        expect(minorOf(amounts.subtotal, c)).toBe(shown.line_items.reduce((sum, line) => sum + minorOf(line.subtotal, c), 0n));
        for (const line of shown.line_items) expect(minorOf(line.subtotal, c)).toBe(minorOf(line.unit_price, c) * BigInt(line.quantity));
        const shownAmounts = [amounts.subtotal, amounts.tax, amounts.shipping, amounts.total, shown.tax.amount, shown.shipping.amount];
        for (const value of [...shownAmounts, ...shown.line_items.flatMap((l) => [l.unit_price, l.subtotal])]) {
          expect(value).toBeGreaterThanOrEqual(0);
          if (currencyExponent(c) === 0) expect(Number.isInteger(value)).toBe(true);
        }
        expect(amounts.tax).toBe(shown.tax.amount);
        expect(amounts.shipping).toBe(shown.shipping.amount);
        expect(validSession(shown), describeErrors(validSession.errors)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('taxes taxable lines at the address’s rate, within half a minor unit, and ships by the documented rules', async () => {
    await fc.assert(
      fc.asyncProperty(cart, address, async (input, shipTo) => {
        const { totals, lines } = await session(input, shipTo);
        const taxable = lines.filter((l) => l.taxable).reduce((sum, l) => sum + lineSubtotal(l), 0n);
        expect(Math.abs(Number(totals.tax) - Number(taxable) * totals.taxRate)).toBeLessThanOrEqual(0.5 + Number(taxable) * 1e-12);
        if (!shipTo?.country) expect(totals.taxRate).toBe(0);
        const ships = lines.some((l) => l.requiresShipping);
        const scale = 10n ** BigInt(currencyExponent(input.currency));
        const expected = !ships ? 0n : totals.subtotal >= 50n * scale ? 0n : 5n * scale;
        expect({ method: totals.shippingMethod, amount: totals.shipping }).toEqual({ method: ships ? 'standard' : 'none', amount: expected });
      }),
      { numRuns: 300 },
    );
  });

  it('never shows a JPY amount with a fraction, whatever the catalog price', async () => {
    const yen = fc.record({
      currency: fc.constant('JPY'),
      products: fc.array(fc.record({ price: fc.double({ min: 0, max: 100_000, noNaN: true }), requiresShipping: fc.option(fc.boolean()), taxable: fc.constant(true) }), { minLength: 1, maxLength: 10 }),
      quantities: fc.array(fc.integer({ min: 1, max: 999 }), { minLength: 10, maxLength: 10 }),
    });
    await fc.assert(
      fc.asyncProperty(yen, address, async (input, shipTo) => {
        const { shown } = await session(input, shipTo);
        const all: CheckoutSession['amounts'][keyof CheckoutSession['amounts']][] = Object.values(shown.amounts);
        for (const value of [...all.filter((v) => typeof v === 'number'), ...shown.line_items.map((l) => l.unit_price)]) {
          expect(Number.isInteger(value)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('with discounts: allocations sum to each discount and to the lines’ discounts, no line below zero, tax after discount, total = subtotal − discount + shipping + tax (0, 2 and 3 decimals)', async () => {
    const discounted = cart.chain((input) => fc.tuple(fc.constant(input), discountsFor(input.currency)));
    await fc.assert(
      fc.asyncProperty(discounted, address, async ([input, discounts], shipTo) => {
        const { shown, totals, lines } = await session(input, shipTo, discounts);
        const c = shown.currency;
        const { amounts } = shown;
        expect(minorOf(amounts.total, c)).toBe(minorOf(amounts.subtotal, c) - minorOf(amounts.discount, c) + minorOf(amounts.tax, c) + minorOf(amounts.shipping, c));
        expect(minorOf(amounts.discount, c)).toBe(shown.line_items.reduce((sum, line) => sum + minorOf(line.discount, c), 0n));
        for (const line of shown.line_items) {
          expect(line.discount).toBeGreaterThanOrEqual(0);
          expect(minorOf(line.discount, c)).toBeLessThanOrEqual(minorOf(line.subtotal, c));
        }
        const items = totals.discounts.applied.filter((d) => d.target === 'items');
        for (const applied of items) expect(applied.allocation.reduce((sum, part) => sum + part, 0n)).toBe(applied.amount);
        expect(items.reduce((sum, d) => sum + d.amount, 0n)).toBe(totals.discount);
        for (const applied of shown.discounts.applied) {
          expect(applied.allocations.reduce((sum, a) => sum + minorOf(a.amount, c), 0n)).toBe(applied.applies_to === 'items' ? minorOf(applied.amount, c) : 0n);
        }
        const taxableNet = lines.reduce((sum, l, i) => (l.taxable ? sum + lineSubtotal(l) - totals.lineDiscounts[i]! : sum), 0n);
        expect(Math.abs(Number(totals.tax) - Number(taxableNet) * totals.taxRate)).toBeLessThanOrEqual(0.5 + Number(taxableNet) * 1e-12);
        const asked = new Set(discounts.codes.map((code) => code.toUpperCase()));
        expect(shown.discounts.applied.filter((d) => d.type === 'code').length + shown.discounts.rejected.length).toBe(discounts.codes.length);
        for (const rejected of shown.discounts.rejected) expect(asked.has(rejected.code.toUpperCase())).toBe(true);
        expect(validSession(shown), describeErrors(validSession.errors)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
