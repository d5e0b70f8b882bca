import { describe, expect, it } from 'vitest';
import { acpEventType } from './acp-event.js';
import { isSessionWithOrder, toAcpOrder, type SessionWithOrder } from './acp-order.js';

const session = (status: SessionWithOrder['order']['status'], method: 'standard' | 'none' = 'none'): SessionWithOrder => ({
  id: 'cs_1',
  status: 'completed',
  currency: 'JPY',
  line_items: [{ product_id: 'app', variant_sku: 'app', quantity: 1, title: 'App licence', unit_price: 1500, currency: 'JPY', subtotal: 1500, discount: 0 }],
  shipping_address: null,
  shipping_address_id: null,
  saved_addresses: [],
  customer: null,
  customer_id: null,
  payment_method: 'demo_card',
  shipping: { method, amount: 0, currency: 'JPY' },
  shipping_options: [],
  shipping_option_id: null,
  shipping_option_chosen: false,
  shipping_unavailable: null,
  discount_codes: [],
  discounts: { applied: [], rejected: [] },
  tax: { rate: 0, amount: 0, currency: 'JPY' },
  amounts: { subtotal: 1500, discount: 0, tax: 0, shipping: 0, total: 1500, currency: 'JPY' },
  client_secret: 'secret',
  created_at: '2026-05-01T00:00:00.000Z',
  order: { id: 'ord_1', checkout_session_id: 'cs_1', status, created_at: '2026-05-01T00:00:00.000Z' },
});

describe('toAcpOrder', () => {
  it('keeps amounts of a zero-exponent currency as they are, and shows no shipping total when nothing ships', () => {
    const order = toAcpOrder(session('created'), 'https://shop.example/orders/ord_1', '2026-05-01T00:00:00.000Z');
    expect(order.totals.map((t) => t.type)).toEqual(['subtotal', 'tax', 'total']);
    expect(order.line_items[0]).toMatchObject({ unit_price: 1500, subtotal: 1500 });
  });

  it('shows what discounts took off as a discount total, so the totals add up to the discounted total', () => {
    const discounted = { ...session('created'), amounts: { subtotal: 1500, discount: 300, tax: 0, shipping: 0, total: 1200, currency: 'JPY' } };
    const order = toAcpOrder(discounted, 'https://shop.example/orders/ord_1', '2026-05-01T00:00:00.000Z');
    expect(order.totals).toEqual([
      { type: 'subtotal', display_text: 'Subtotal', amount: 1500 },
      { type: 'discount', display_text: 'Discounts', amount: 300 },
      { type: 'tax', display_text: 'Tax', amount: 0 },
      { type: 'total', display_text: 'Total', amount: 1200 },
    ]);
  });

  it('fulfils an order that ships nothing as a delivered digital fulfillment', () => {
    const order = toAcpOrder(session('fulfilled'), 'https://shop.example/orders/ord_1', '2026-05-02T00:00:00.000Z');
    expect(order.status).toBe('shipped');
    expect(order.fulfillments).toEqual([{ id: 'ful_ord_1', type: 'digital', status: 'delivered', line_items: [{ id: 'li_1', quantity: 1 }], events: [{ id: 'fe_ord_1_1', type: 'delivered', occurred_at: '2026-05-02T00:00:00.000Z' }] }]);
  });

  it('tells a session with an order from anything else', () => {
    expect(isSessionWithOrder(session('created'))).toBe(true);
    expect(isSessionWithOrder({ ...session('created'), order: null })).toBe(false);
    expect(isSessionWithOrder({ custom: 1 })).toBe(false);
  });
});

describe('acpEventType', () => {
  it.each([
    ['order.created', 'order_create'],
    ['order.updated', 'order_update'],
    ['order.fulfilled', 'order_update'],
    ['order.canceled', 'order_update'],
    ['order.refunded', 'order_update'],
    ['checkout.completed', null],
  ])('%s → %s', (ours, acp) => {
    expect(acpEventType(ours)).toBe(acp);
  });
});
