import { describe, expect, it } from 'vitest';
import type { Order } from '../../contract/types.js';
import { isOrder, toAcpOrderOf } from './acp-order-of.js';

const order = (change: Partial<Order> = {}): Order => ({
  id: 'ord_1',
  status: 'partially_fulfilled',
  checkout_session_id: 'cs_1',
  currency: 'USD',
  line_items: [
    { product_id: 'chair', variant_sku: 'chair', quantity: 3, title: 'Chair', unit_price: 10, currency: 'USD', subtotal: 30, discount: 0 },
    { product_id: 'lamp', variant_sku: 'lamp', quantity: 1, title: 'Lamp', unit_price: 20, currency: 'USD', subtotal: 20, discount: 0 },
  ],
  shipping: { method: 'standard', amount: 5, currency: 'USD' },
  tax: { rate: 0, amount: 0, currency: 'USD' },
  amounts: { subtotal: 50, discount: 0, tax: 0, shipping: 5, total: 55, currency: 'USD' },
  discounts: { applied: [], rejected: [] },
  customer: null,
  customer_id: null,
  shipping_address: null,
  fulfillments: [{ id: 'ful_1', status: 'shipped', carrier: 'UPS', tracking_number: '1Z', tracking_url: 'HTTP://ups.example/t/{1Z}', lines: [{ line: 1, quantity: 2 }], created_at: '2026-11-03T00:00:00.000Z', delivered_at: null }],
  refunds: [],
  refunded_amount: 0,
  payment: null,
  canceled_at: null,
  created_at: '2026-11-02T00:00:00.000Z',
  updated_at: '2026-11-03T00:00:00.000Z',
  ...change,
});

describe('toAcpOrderOf', () => {
  it('shows a partial shipment: the line partial, the fulfillment with its tracking (a strict URI), the order processing', () => {
    const acp = toAcpOrderOf(order(), 'https://shop.example/orders/ord_1');
    expect(acp).toMatchObject({
      status: 'processing',
      line_items: [{ id: 'li_1', quantity: { ordered: 3, current: 3, fulfilled: 2 }, status: 'partial' }, { id: 'li_2', quantity: { ordered: 1, current: 1, fulfilled: 0 }, status: 'processing' }],
      fulfillments: [{ id: 'ful_1', type: 'shipping', status: 'shipped', carrier: 'UPS', tracking_number: '1Z', tracking_url: 'http://ups.example/t/%7B1Z%7D', line_items: [{ id: 'li_1', quantity: 2 }], events: [{ id: 'ful_1_shipped', type: 'shipped' }] }],
      adjustments: [],
    });
  });

  it('shows a cancellation of the rest and a refund by line as adjustments, with amount_refunded', () => {
    const acp = toAcpOrderOf(order({ canceled_at: '2026-11-04T00:00:00.000Z', refunds: [{ id: 're_1', amount: 10, reason: 'damaged', note: null, lines: [{ line: 1, quantity: 1 }], created_at: '2026-11-04T00:00:00.000Z' }], refunded_amount: 10 }), 'https://x');
    expect(acp.line_items).toMatchObject([{ quantity: { ordered: 3, current: 2, fulfilled: 2 }, status: 'fulfilled' }, { quantity: { ordered: 1, current: 0, fulfilled: 0 }, status: 'removed' }]);
    expect(acp.adjustments).toEqual([
      { id: 're_1', type: 'refund', occurred_at: '2026-11-04T00:00:00.000Z', status: 'completed', line_items: [{ id: 'li_1', quantity: 1 }], amount: 1000, currency: 'usd', description: 'Refund (damaged)', reason: 'damaged' },
      { id: 'ord_1_cancellation', type: 'cancellation', occurred_at: '2026-11-04T00:00:00.000Z', status: 'completed', line_items: [{ id: 'li_2', quantity: 1 }], description: 'Canceled before fulfillment' },
    ]);
    expect(acp.status).toBe('shipped');
    expect(acp.totals).toContainEqual({ type: 'amount_refunded', display_text: 'Refunded', amount: 1000 });
  });

  it('tells an Order from a session or anything else', () => {
    expect(isOrder(order())).toBe(true);
    expect(isOrder({ id: 'cs_1', line_items: [], amounts: {}, order: { id: 'ord_1' } })).toBe(false);
    expect(isOrder(null)).toBe(false);
  });
});
