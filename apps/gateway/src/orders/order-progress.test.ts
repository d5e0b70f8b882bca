import { describe, expect, it } from 'vitest';
import type { SessionLine } from '../checkout/session.js';
import { deriveStatus, lineProgress, refundable } from './order-progress.js';
import type { FulfillmentRecord, OrderRecord, RefundRecord } from './order-record.js';

const line = (position: number, quantity: number): SessionLine => ({
  position, productId: `p${position}`, variantSku: `p${position}`, quantity, title: `P${position}`, unitAmount: 1000n, subtotal: BigInt(quantity) * 1000n, requiresShipping: true, taxable: false, category: null, discount: 0n,
});
const shipped = (units: [number, number][], delivered = false): FulfillmentRecord => ({
  id: 'ful_x', carrier: null, trackingNumber: null, trackingUrl: null, lines: units.map(([position, quantity]) => ({ position, quantity })), createdAt: new Date(0), deliveredAt: delivered ? new Date(1) : null,
});
const refund = (amount: bigint, units: [number, number][] = []): RefundRecord => ({
  id: 're_x', amount, reason: 'other', note: null, lines: units.map(([position, quantity]) => ({ position, quantity })), reference: 'r', createdAt: new Date(0),
});

/** An order of 3 × line 0 and 1 × line 1, total 45.00 (40.00 + 5.00 shipping). */
function order(change: Partial<Pick<OrderRecord, 'fulfillments' | 'refunds' | 'canceledAt'>> = {}): OrderRecord {
  return {
    session: { lineItems: [line(0, 3), line(1, 1)], order: { id: 'ord_1', status: 'created', currency: 'USD', total: 4500n, createdAt: new Date(0) } } as unknown as OrderRecord['session'],
    updatedAt: new Date(0),
    canceledAt: null,
    fulfillments: [],
    refunds: [],
    ...change,
  };
}

describe('deriveStatus', () => {
  it.each<[string, Parameters<typeof order>[0], string]>([
    ['nothing yet', {}, 'created'],
    ['some units shipped', { fulfillments: [shipped([[0, 2]])] }, 'partially_fulfilled'],
    ['every unit shipped', { fulfillments: [shipped([[0, 2]]), shipped([[0, 1], [1, 1]])] }, 'fulfilled'],
    ['every unit shipped, one shipment delivered', { fulfillments: [shipped([[0, 2]], true), shipped([[0, 1], [1, 1]])] }, 'fulfilled'],
    ['every unit shipped and delivered', { fulfillments: [shipped([[0, 3], [1, 1]], true)] }, 'delivered'],
    ['the rest refunded by line', { fulfillments: [shipped([[0, 3]])], refunds: [refund(1000n, [[1, 1]])] }, 'fulfilled'],
    ['a partial refund keeps the status', { fulfillments: [shipped([[0, 3], [1, 1]], true)], refunds: [refund(500n)] }, 'delivered'],
    ['everything paid back', { fulfillments: [shipped([[0, 3], [1, 1]])], refunds: [refund(500n), refund(4000n)] }, 'refunded'],
    ['canceled before anything shipped', { canceledAt: new Date(1), refunds: [refund(4500n)] }, 'canceled'],
    ['canceled after a partial shipment', { canceledAt: new Date(1), fulfillments: [shipped([[0, 1]])] }, 'fulfilled'],
  ])('%s → %s', (_name, change, status) => {
    expect(deriveStatus(order(change))).toBe(status);
  });
});

describe('lineProgress', () => {
  it('counts per line what was fulfilled, refunded by line, canceled, and what is left', () => {
    const record = order({ fulfillments: [shipped([[0, 1]])], refunds: [refund(1000n, [[0, 1]])], canceledAt: new Date(1) });
    expect(lineProgress(record).map(({ line: _line, ...rest }) => rest)).toEqual([
      { ordered: 3, fulfilled: 1, refunded: 1, canceled: 1, remaining: 0 },
      { ordered: 1, fulfilled: 0, refunded: 0, canceled: 1, remaining: 0 },
    ]);
    expect(refundable(record)).toBe(3500n);
  });

  it('leaves nothing to fulfil once everything paid was paid back by amount, and everything while something is still paid', () => {
    const rest = (record: OrderRecord) => lineProgress(record).map((p) => p.remaining);
    expect(rest(order({ refunds: [refund(4500n)] }))).toEqual([0, 0]);
    expect(rest(order({ fulfillments: [shipped([[0, 1]])], refunds: [refund(2000n), refund(2500n)] }))).toEqual([0, 0]);
    expect(rest(order({ refunds: [refund(4499n)] }))).toEqual([3, 1]);
  });
});
