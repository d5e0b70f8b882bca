import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDiscounts, type DiscountLine } from './apply-discounts.js';
import type { DiscountCode, MerchantDiscounts, Promotion } from './discount.js';

const now = new Date('2026-12-10T12:00:00Z');
const percent = (code: string, pct: number, extra: Partial<DiscountCode> = {}): DiscountCode => ({
  code, value: { kind: 'percentage', basisPoints: pct * 100 }, target: { kind: 'cart' }, combinable: true, ...extra,
});
const fixed = (code: string, amounts: Record<string, bigint>, extra: Partial<DiscountCode> = {}): DiscountCode => ({
  code, value: { kind: 'fixed', amounts }, target: { kind: 'cart' }, combinable: true, ...extra,
});
const line = (productId: string, subtotal: bigint, category = 'Home > Furniture'): DiscountLine => ({ productId, category, subtotal });
const shop = (codes: DiscountCode[], promotions: Promotion[] = []): MerchantDiscounts => ({ codes, promotions });
const apply = (discounts: MerchantDiscounts, lines: DiscountLine[], codes: string[], extra = {}) =>
  applyDiscounts(discounts, { currency: 'USD', lines, codes, now, ...extra });

describe('applying discounts to a cart', () => {
  it('stacks codes in the order given, each on what the previous left: 10 % then 20 % leaves 72 %', () => {
    const outcome = apply(shop([percent('TEN', 10), percent('TWENTY', 20)]), [line('a', 10_000n)], ['ten', 'TWENTY']);
    expect(outcome.applied.map((a) => [a.source, a.amount])).toEqual([[{ kind: 'code', code: 'TEN' }, 1000n], [{ kind: 'code', code: 'TWENTY' }, 1800n]]);
    expect(outcome.discount).toBe(2800n);
    expect(10_000n - outcome.discount).toBe(7200n);
  });

  it('allocates a discount over the lines it applies to, adding up exactly, and only to them', () => {
    const chairs = { ...percent('CHAIRS', 15), target: { kind: 'categories', categories: ['chairs'] } } as DiscountCode;
    const outcome = apply(shop([chairs, fixed('FIVE', { USD: 500n })]), [line('a', 3333n, 'Home > Chairs'), line('b', 6667n, 'Home > Lamps'), line('c', 1001n, 'Garden > Chairs')], ['CHAIRS', 'FIVE']);
    expect(outcome.applied[0]!.allocation).toEqual([500n, 0n, 150n]); // 15 % of 4334 = 650.1 → 650
    expect(outcome.applied[1]!.allocation.reduce((a, b) => a + b, 0n)).toBe(500n);
    expect(outcome.lineDiscounts.reduce((a, b) => a + b, 0n)).toBe(outcome.discount);
  });

  it('reports each code that does not apply with its reason, and applies the others', () => {
    const codes = [
      percent('OLD', 10, { endsAt: new Date('2026-12-01T00:00:00Z') }),
      percent('SOON', 10, { startsAt: new Date('2027-01-01T00:00:00Z') }),
      percent('BIG', 10, { minimumSubtotal: { USD: 50_000n } }),
      percent('USED', 10, { usageLimit: 10 }),
      percent('ONCE', 10, { perCustomerLimit: 1 }),
      percent('ALONE', 10, { combinable: false }),
      fixed('EUROS', { EUR: 500n }),
      { ...percent('LAMPS', 10), target: { kind: 'products', productIds: ['lamp'] } } as DiscountCode,
      percent('OK', 10),
    ];
    const usage = (code: DiscountCode) => (code.code === 'USED' ? { total: 10, customer: 0 } : code.code === 'ONCE' ? { total: 3, customer: 1 } : { total: 0, customer: 0 });
    const outcome = apply(shop(codes), [line('a', 10_000n)], ['OK', 'nope', 'OLD', 'SOON', 'BIG', 'USED', 'ONCE', 'ALONE', 'EUROS', 'LAMPS', 'ok'], { usage });
    expect(outcome.applied.map((a) => a.source)).toEqual([{ kind: 'code', code: 'OK' }]);
    expect(outcome.rejected).toEqual([
      { code: 'nope', reason: 'unknown' },
      { code: 'OLD', reason: 'expired' },
      { code: 'SOON', reason: 'not_started' },
      { code: 'BIG', reason: 'minimum_not_met' },
      { code: 'USED', reason: 'limit_reached' },
      { code: 'ONCE', reason: 'limit_reached' },
      { code: 'ALONE', reason: 'not_combinable' },
      { code: 'EUROS', reason: 'not_applicable' },
      { code: 'LAMPS', reason: 'not_applicable' },
      { code: 'ok', reason: 'already_applied' },
    ]);
  });

  it('keeps a code that is not combinable alone: every later code is refused', () => {
    const outcome = apply(shop([percent('ALONE', 10, { combinable: false }), percent('OTHER', 5)]), [line('a', 1000n)], ['ALONE', 'OTHER']);
    expect(outcome.applied.map((a) => a.amount)).toEqual([100n]);
    expect(outcome.rejected).toEqual([{ code: 'OTHER', reason: 'not_combinable' }]);
  });

  it('never takes a fixed amount beyond what is left', () => {
    const outcome = apply(shop([fixed('HUGE', { USD: 1_000_000n })]), [line('a', 999n), line('b', 1n)], ['HUGE']);
    expect(outcome.lineDiscounts).toEqual([999n, 1n]);
  });

  it('applies promotions without a code, before codes: free shipping above a subtotal or for a category, a percentage off a category', () => {
    const promotions: Promotion[] = [
      { id: 'ship50', title: 'Free shipping over $50', effect: { kind: 'free_shipping' }, target: { kind: 'cart' }, minimumSubtotal: { USD: 5000n } },
      { id: 'shipchairs', title: 'Chairs ship free', effect: { kind: 'free_shipping' }, target: { kind: 'categories', categories: ['chairs'] } },
      { id: 'lamps20', title: '20 % off lamps', effect: { kind: 'percentage', basisPoints: 2000 }, target: { kind: 'categories', categories: ['lamps'] } },
    ];
    const small = apply(shop([percent('TEN', 10)], promotions), [line('l', 1000n, 'Lamps')], ['TEN']);
    expect(small.freeShipping).toBeUndefined();
    expect(small.applied.map((a) => [a.source.kind, a.amount])).toEqual([['promotion', 200n], ['code', 80n]]);
    expect(apply(shop([], promotions), [line('c', 1000n, 'Chairs')], []).freeShipping).toEqual({ id: 'shipchairs', title: 'Chairs ship free' });
    expect(apply(shop([], promotions), [line('x', 6000n, 'Rugs')], []).freeShipping).toEqual({ id: 'ship50', title: 'Free shipping over $50' });
  });
});

describe('the money of discounts, over random carts in currencies of 0, 2 and 3 decimals', () => {
  const code = fc.oneof(
    fc.integer({ min: 1, max: 10_000 }).map((bp) => ({ value: { kind: 'percentage', basisPoints: bp } as const })),
    fc.bigInt({ min: 1n, max: 10_000_000n }).map((amount) => ({ value: { kind: 'fixed', amounts: { JPY: amount, USD: amount, KWD: amount } } as const })),
  );
  const cart = fc.record({
    currency: fc.constantFrom('JPY', 'USD', 'KWD'),
    lines: fc.array(fc.record({ productId: fc.constantFrom('a', 'b', 'c'), category: fc.constantFrom('Chairs', 'Lamps'), subtotal: fc.bigInt({ min: 0n, max: 100_000_000n }) }), { minLength: 1, maxLength: 6 }),
    codes: fc.array(code, { minLength: 1, maxLength: 4 }),
    targets: fc.array(fc.constantFrom('cart', 'chairs', 'b'), { minLength: 4, maxLength: 4 }),
  });

  it('allocations sum to each discount, no line goes below zero, and the total never exceeds the subtotal', () => {
    fc.assert(
      fc.property(cart, ({ currency, lines, codes, targets }) => {
        const defined: DiscountCode[] = codes.map((c, i) => ({
          code: `C${i}`, value: c.value, combinable: true,
          target: targets[i] === 'cart' ? { kind: 'cart' } : targets[i] === 'chairs' ? { kind: 'categories', categories: ['chairs'] } : { kind: 'products', productIds: ['b'] },
        }));
        const outcome = applyDiscounts({ codes: defined, promotions: [] }, { currency, lines, codes: defined.map((c) => c.code), now });
        const subtotal = lines.reduce((s, l) => s + l.subtotal, 0n);
        for (const applied of outcome.applied) expect(applied.allocation.reduce((a, b) => a + b, 0n)).toBe(applied.amount);
        outcome.lineDiscounts.forEach((d, i) => {
          expect(d >= 0n && d <= lines[i]!.subtotal).toBe(true);
          expect(outcome.applied.reduce((s, a) => s + a.allocation[i]!, 0n)).toBe(d);
        });
        expect(outcome.discount).toBe(outcome.lineDiscounts.reduce((a, b) => a + b, 0n));
        expect(outcome.discount <= subtotal).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
