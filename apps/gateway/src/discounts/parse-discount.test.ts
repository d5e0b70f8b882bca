import { describe, expect, it } from 'vitest';
import { DiscountDefinitionError, parseDiscount } from './parse-discount.js';

const sold = new Set(['USD', 'EUR', 'JPY']);

describe('a discounts file record', () => {
  it('reads a percentage code with every field', () => {
    const parsed = parseDiscount(
      {
        type: 'code', code: 'Save10', kind: 'percentage', percentage: 12.5, applies_to: { categories: ['Chairs', 'Chairs'] },
        minimum_subtotal: { usd: 25 }, starts_at: '2026-12-01T00:00:00Z', ends_at: '2027-01-01T00:00:00+01:00',
        usage_limit: 10, per_customer_limit: 1, combinable: false,
      },
      sold,
    );
    expect(parsed).toEqual({
      type: 'code',
      code: {
        code: 'Save10', value: { kind: 'percentage', basisPoints: 1250 }, target: { kind: 'categories', categories: ['Chairs'] },
        minimumSubtotal: { USD: 2500n }, startsAt: new Date('2026-12-01T00:00:00Z'), endsAt: new Date('2026-12-31T23:00:00Z'),
        usageLimit: 10, perCustomerLimit: 1, combinable: false,
      },
    });
  });

  it('reads a fixed code in currencies of 2 and 0 decimals, and promotions', () => {
    expect(parseDiscount({ type: 'code', code: '5OFF', kind: 'fixed', amounts: { USD: 5.25, JPY: 500 } }, sold)).toMatchObject({
      code: { value: { kind: 'fixed', amounts: { USD: 525n, JPY: 500n } }, target: { kind: 'cart' }, combinable: true },
    });
    expect(parseDiscount({ type: 'promotion', id: 'ship', kind: 'free_shipping', minimum_subtotal: { EUR: 50 } }, sold)).toEqual({
      type: 'promotion',
      promotion: { id: 'ship', title: 'ship', effect: { kind: 'free_shipping' }, target: { kind: 'cart' }, minimumSubtotal: { EUR: 5000n } },
    });
    expect(parseDiscount({ type: 'promotion', id: 'p', title: '15 % off chairs', kind: 'percentage', percentage: 15, applies_to: { products: ['p_1'] } })).toMatchObject({
      promotion: { effect: { kind: 'percentage', basisPoints: 1500 }, target: { kind: 'products', productIds: ['p_1'] } },
    });
  });

  it.each([
    [[1], '(record)', 'must be a JSON object'],
    [{ type: 'coupon' }, 'type', 'must be "code" or "promotion"'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 10, colour: 'red' }, 'colour', 'is not a field of a code'],
    [{ type: 'code', code: 'has space', kind: 'percentage', percentage: 10 }, 'code', 'letters, digits'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 150 }, 'percentage', 'at most 100'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 0 }, 'percentage', 'above 0'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 10.555 }, 'percentage', 'two decimals'],
    [{ type: 'code', code: 'A', kind: 'fixed', amounts: { GBP: 5 } }, 'amounts.GBP', 'sells in EUR, JPY, USD, not GBP'],
    [{ type: 'code', code: 'A', kind: 'fixed', amounts: { US: 5 } }, 'amounts.US', 'ISO 4217'],
    [{ type: 'code', code: 'A', kind: 'fixed', amounts: { USD: 5.001 } }, 'amounts.USD', 'not an exact amount of USD'],
    [{ type: 'code', code: 'A', kind: 'fixed', amounts: { JPY: 0.5 } }, 'amounts.JPY', 'not an exact amount of JPY'],
    [{ type: 'code', code: 'A', kind: 'fixed', amounts: { USD: -1 } }, 'amounts.USD', 'above 0'],
    [{ type: 'code', code: 'A', kind: 'fixed', amounts: {} }, 'amounts', 'amounts by currency'],
    [{ type: 'code', code: 'A', kind: 'fixed', amounts: { USD: 1, usd: 2 } }, 'amounts.usd', 'given twice'],
    [{ type: 'code', code: 'A', kind: 'fixed', percentage: 5, amounts: { USD: 1 } }, 'percentage', 'for a percentage code'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 5, starts_at: '2027-01-01T00:00:00Z', ends_at: '2026-01-01T00:00:00Z' }, 'ends_at', 'after starts_at'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 5, starts_at: 'tomorrow' }, 'starts_at', 'RFC 3339'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 5, usage_limit: 0 }, 'usage_limit', 'at least 1'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 5, per_customer_limit: 1.5 }, 'per_customer_limit', 'whole number'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 5, applies_to: { products: [] } }, 'applies_to.products', '1 to 1,000'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 5, applies_to: { products: ['a'], categories: ['b'] } }, 'applies_to', 'leave it out'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 5, applies_to: { categories: [' '] } }, 'applies_to.categories[0]', 'non-blank'],
    [{ type: 'code', code: 'A', kind: 'percentage', percentage: 5, combinable: 'no' }, 'combinable', 'true or false'],
    [{ type: 'promotion', id: 'p', kind: 'free_shipping', percentage: 5 }, 'percentage', 'not a field of a free_shipping'],
    [{ type: 'promotion', kind: 'free_shipping' }, 'id', 'non-blank'],
    [{ type: 'promotion', id: 'p', kind: 'fixed' }, 'kind', '"free_shipping" or "percentage"'],
  ])('refuses %j, naming %s', (record, field, words) => {
    let error: unknown;
    try {
      parseDiscount(record, sold);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DiscountDefinitionError);
    expect((error as DiscountDefinitionError).field).toBe(field);
    expect((error as Error).message).toContain(words);
  });
});
