/**
 * Our Order as the official UCP order of each release (src/ucp/order/ucp-order.ts): every order in
 * every state validated against the release's own order.json, and the mapping's rules checked.
 */
import { describe, expect, it } from 'vitest';
import type { Order } from '../src/contract/types.js';
import { orderOfEvent } from '../src/ucp/order/order-of-event.js';
import { toUcpOrder } from '../src/ucp/order/ucp-order.js';
import { describeProblem, ucpOrderValidator } from '../src/ucp/ucp-schemas.js';
import { UCP_VERSIONS, type UcpVersion } from '../src/ucp/ucp-version.js';

const PERMALINK = 'https://shop.example/orders/ord_1';
const T0 = '2026-11-20T10:00:00.000Z';
const T1 = '2026-11-21T10:00:00.000Z';
const T2 = '2026-11-22T10:00:00.000Z';

function order(overrides: Partial<Order> = {}): Order {
  const line = (product: string, quantity: number, price: number) => ({ product_id: product, variant_sku: `${product}-1`, quantity, title: product, unit_price: price, currency: 'USD', subtotal: quantity * price, discount: 0 });
  return {
    id: 'ord_1',
    status: 'created',
    checkout_session_id: 'cs_1',
    currency: 'USD',
    line_items: [line('shoes', 3, 30), line('shirt', 2, 20)],
    shipping: { method: 'standard', amount: 5, currency: 'USD' },
    tax: { rate: 0.1, amount: 13 } as unknown as Order['tax'],
    amounts: { subtotal: 130, discount: 0, tax: 13, shipping: 5, total: 148, currency: 'USD' },
    discounts: { codes: [], applied: [] } as unknown as Order['discounts'],
    customer_id: null,
    customer: null,
    shipping_address: { name: 'Ada King Lovelace', line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
    fulfillments: [],
    refunds: [],
    refunded_amount: 0,
    payment: null,
    canceled_at: null,
    created_at: T0,
    updated_at: T0,
    ...overrides,
  };
}

const shipped = (lines: { line: number; quantity: number }[], delivered_at: string | null = null) => ({
  id: `ful_${lines.map((l) => l.line).join('')}`, status: delivered_at ? 'delivered' as const : 'shipped' as const, carrier: 'UPS', tracking_number: '1Z999', tracking_url: 'https://ups.example/track/1Z999', lines, created_at: T1, delivered_at,
});

const ORDERS: [string, Order][] = [
  ['placed', order()],
  ['partly shipped', order({ status: 'partially_fulfilled', fulfillments: [shipped([{ line: 1, quantity: 2 }])] })],
  ['delivered', order({ status: 'delivered', fulfillments: [shipped([{ line: 1, quantity: 3 }, { line: 2, quantity: 2 }], T2)] })],
  ['canceled after a partial shipment', order({ status: 'canceled', canceled_at: T2, fulfillments: [shipped([{ line: 1, quantity: 1 }])] })],
  ['refunded', order({ status: 'refunded', refunded_amount: 148, canceled_at: T2, refunds: [{ id: 'rf_1', amount: 148, reason: 'canceled', note: null, lines: [{ line: 1, quantity: 3 }, { line: 2, quantity: 2 }], created_at: T2 }] })],
  ['digital, discounted', order({ shipping: { method: 'none', amount: 0, currency: 'USD' }, shipping_address: null, amounts: { subtotal: 130, discount: 10, tax: 12, shipping: 0, total: 132, currency: 'USD' }, fulfillments: [shipped([{ line: 1, quantity: 3 }])] })],
];

describe.each(UCP_VERSIONS.map((v) => [v] as [UcpVersion]))('UCP %s order', (version) => {
  const validate = ucpOrderValidator(version);

  it.each(ORDERS)('a %s order matches the official order.json', (_name, ours) => {
    const ucp = toUcpOrder(ours, version, PERMALINK);
    expect(validate(ucp), describeProblem(validate)).toBe(true);
    expect(ucp).toMatchObject({ id: 'ord_1', checkout_id: 'cs_1', permalink_url: PERMALINK });
    expect((ucp.ucp as { version: string }).version).toBe(version);
  });

  it('the validator is the real schema: an order without line items or with a float price fails', () => {
    const ucp = toUcpOrder(order(), version, PERMALINK) as unknown as Record<string, unknown> & { line_items: { item: { price: number } }[] };
    const { line_items: _lines, ...without } = ucp;
    expect(validate(without)).toBe(false);
    ucp.line_items[0]!.item.price = 1.5;
    expect(validate(ucp)).toBe(false);
  });

  it('counts units per line: total, fulfilled and the status derivation', () => {
    const ucp = toUcpOrder(ORDERS[1]![1], version, PERMALINK) as unknown as { line_items: { id: string; quantity: Record<string, number>; status: string }[] };
    expect(ucp.line_items[0]).toMatchObject({ id: 'li_1', quantity: { total: 3, fulfilled: 2 }, status: 'partial' });
    expect(ucp.line_items[1]).toMatchObject({ id: 'li_2', quantity: { total: 2, fulfilled: 0 }, status: 'processing' });
    if (version === '2026-04-08') expect(ucp.line_items[0]!.quantity.original).toBe(3);
    else expect(ucp.line_items[0]!.quantity).not.toHaveProperty('original');
  });

  it('logs shipped and delivered events with tracking, in time order', () => {
    const ucp = toUcpOrder(ORDERS[2]![1], version, PERMALINK) as unknown as { fulfillment: { events: Record<string, unknown>[]; expectations: Record<string, unknown>[] } };
    expect(ucp.fulfillment.events.map((e) => e.type)).toEqual(['shipped', 'delivered']);
    expect(ucp.fulfillment.events[0]).toMatchObject({ tracking_number: '1Z999', carrier: 'UPS', line_items: [{ id: 'li_1', quantity: 3 }, { id: 'li_2', quantity: 2 }] });
    expect(ucp.fulfillment.expectations[0]).toMatchObject({ method_type: 'shipping', description: 'Delivered', destination: { first_name: 'Ada', last_name: 'King Lovelace', address_locality: 'San Francisco', address_country: 'US' } });
    if (version === '2026-01-11') expect(ucp.fulfillment.expectations[0]!.destination).toMatchObject({ full_name: 'Ada King Lovelace' });
    else expect(ucp.fulfillment.expectations[0]!.destination).not.toHaveProperty('full_name');
  });

  it('records a cancellation and a refund as adjustments, signed as the release says', () => {
    const canceled = toUcpOrder(ORDERS[3]![1], version, PERMALINK) as unknown as { adjustments: Record<string, unknown>[]; line_items: { status: string; quantity: { total: number } }[] };
    const sign = version === '2026-04-08' ? -1 : 1;
    expect(canceled.adjustments).toEqual([expect.objectContaining({ type: 'cancellation', status: 'completed', line_items: [{ id: 'li_1', quantity: 2 * sign }, { id: 'li_2', quantity: 2 * sign }] })]);
    expect(canceled.line_items.map((l) => l.quantity.total)).toEqual([1, 0]);
    expect(canceled.line_items[1]!.status).toBe(version === '2026-04-08' ? 'removed' : 'fulfilled');
    const refunded = toUcpOrder(ORDERS[4]![1], version, PERMALINK) as unknown as { adjustments: Record<string, unknown>[] };
    const refund = refunded.adjustments.find((a) => a.type === 'refund')!;
    if (version === '2026-04-08') expect(refund.totals).toEqual([{ type: 'total', amount: -14800 }]);
    else expect(refund.amount).toBe(14800);
  });

  it('gives order totals in minor units, with the discount as the release signs it', () => {
    const ucp = toUcpOrder(ORDERS[5]![1], version, PERMALINK) as unknown as { totals: { type: string; amount: number }[]; fulfillment: { expectations: { method_type: string }[] } };
    expect(ucp.totals.map((t) => [t.type, t.amount])).toEqual([['subtotal', 13000], ['discount', version === '2026-04-08' ? -1000 : 1000], ['tax', 1200], ['total', 13200]]);
    expect(ucp.fulfillment.expectations[0]!.method_type).toBe('digital');
  });
});

describe('orderOfEvent', () => {
  it('reads the order placed from order.created\'s completed session', () => {
    const { id, fulfillments, refunds, refunded_amount, canceled_at, status, checkout_session_id, created_at, updated_at, ...shared } = order();
    const session = { ...shared, id: 'cs_1', status: 'completed', order: { id, checkout_session_id: 'cs_1', status: 'created', created_at: T0 } };
    expect(orderOfEvent(session)).toEqual(order());
    expect(orderOfEvent(order())).toEqual(order());
    expect(orderOfEvent({ id: 'cs_2', line_items: [] })).toBeNull();
  });
});
