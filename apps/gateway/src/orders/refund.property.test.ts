/**
 * Properties of refunds over random discounted orders (priced by the real pricing, in currencies of
 * 0, 2 and 3 decimals): refunding units line by line, each refund's default amount is what those
 * units were paid, refunds never add up past what was paid, the goods' refunds never take the
 * shipping, and the rest can always be paid back by amount, to the minor unit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultPricing } from '../checkout/pricing/default-pricing.js';
import { lineSubtotal } from '../checkout/pricing/pricing.js';
import type { SessionLine } from '../checkout/session.js';
import { InvalidRequestError, InvalidStateError } from '../kernel/errors.js';
import { refundOf } from './order-changes.js';
import { linePaid, refundable, refundedTotal } from './order-progress.js';
import type { OrderRecord } from './order-record.js';

const pricing = defaultPricing();
const CURRENCIES = ['USD', 'JPY', 'KWD'] as const;
const CA = { line1: '1 Market St', city: 'San Francisco', state: 'CA', country: 'US' };

const order = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  lines: fc.array(fc.record({ unitAmount: fc.bigInt({ min: 0n, max: 500_000n }), quantity: fc.integer({ min: 1, max: 9 }), taxable: fc.boolean() }), { minLength: 1, maxLength: 6 }),
  percent: fc.integer({ min: 0, max: 10_000 }),
  fixed: fc.bigInt({ min: 0n, max: 1_000_000n }),
});

type OrderInput = typeof order extends fc.Arbitrary<infer T> ? T : never;

async function placed(input: OrderInput): Promise<OrderRecord> {
  const pricingLines = input.lines.map((line, i) => ({ ...line, requiresShipping: true, productId: `p${i}`, category: 'Things' }));
  const codes = [
    { code: 'PCT', value: { kind: 'percentage' as const, basisPoints: input.percent }, target: { kind: 'cart' as const }, combinable: true },
    { code: 'FIX', value: { kind: 'fixed' as const, amounts: { [input.currency]: input.fixed } }, target: { kind: 'products' as const, productIds: ['p0'] }, combinable: true },
  ];
  const totals = await pricing.totals(input.currency, pricingLines, CA, { discounts: { merchant: { codes, promotions: [] }, codes: ['PCT', 'FIX'], now: new Date() } });
  const lineItems: SessionLine[] = pricingLines.map((line, position) => ({
    position, productId: line.productId, variantSku: line.productId, quantity: line.quantity, title: 'T', unitAmount: line.unitAmount,
    subtotal: lineSubtotal(line), requiresShipping: true, taxable: line.taxable, category: 'Things', discount: totals.lineDiscounts[position]!,
  }));
  const session = {
    currency: input.currency, taxAmount: totals.tax, shippingAmount: totals.shipping, lineItems,
    order: { id: 'ord_p', status: 'created', currency: input.currency, total: totals.total, createdAt: new Date(0) },
  } as unknown as OrderRecord['session'];
  return { session, updatedAt: new Date(0), canceledAt: null, fulfillments: [], refunds: [] };
}

describe('refund properties', () => {
  it('line by line, then the rest by amount: each default is what the units were paid, never past the total', async () => {
    await fc.assert(
      fc.asyncProperty(order, fc.array(fc.nat(), { maxLength: 20 }), async (input, picks) => {
        const record = await placed(input);
        const total = record.session.order.total;
        const goods = linePaid(record).reduce((sum, paid) => sum + paid, 0n);
        expect(goods + record.session.shippingAmount).toBe(total); // every minor unit paid belongs to a line or to shipping
        for (const pick of picks) {
          if (refundable(record) === 0n) break; // nothing left to pay back (the rest of the goods cost nothing)
          const open = record.session.lineItems.filter((line) => line.quantity > record.refunds.flatMap((r) => r.lines).filter((u) => u.position === line.position).reduce((n, u) => n + u.quantity, 0));
          if (open.length === 0) break;
          const line = open[pick % open.length]!;
          const number = record.session.lineItems.indexOf(line) + 1;
          let refund;
          try {
            refund = refundOf(record, { reason: 'other', lines: [{ line: number, quantity: 1 }] });
          } catch (error) {
            // A unit that was paid nothing (fully discounted, untaxed) is refused, naming the amount.
            expect(error).toBeInstanceOf(InvalidRequestError);
            expect((error as InvalidRequestError).param).toBe('amount');
            expect(linePaid(record)[number - 1]! / BigInt(line.quantity)).toBe(0n);
            continue;
          }
          expect(refund.amount).toBe(linePaid(record)[number - 1]! / BigInt(line.quantity) <= refundable(record) ? linePaid(record)[number - 1]! / BigInt(line.quantity) : refundable(record));
          record.refunds.push({ id: `re_${record.refunds.length}`, amount: refund.amount, reason: 'other', note: null, lines: refund.lines, reference: 'r', createdAt: new Date(0) });
          expect(refundedTotal(record)).toBeLessThanOrEqual(goods);
        }
        if (refundable(record) > 0n) {
          const rest = refundOf(record, { reason: 'other' });
          expect(rest.amount).toBe(total - refundedTotal(record));
          record.refunds.push({ id: 're_rest', amount: rest.amount, reason: 'other', note: null, lines: [], reference: 'r', createdAt: new Date(0) });
        }
        expect(refundedTotal(record)).toBe(total);
        expect(() => refundOf(record, { reason: 'other' })).toThrow(InvalidStateError);
      }),
      { numRuns: 300 },
    );
  });
});
