/** Small valid contract objects for unit tests (they pass the generated zod validators). */
import type { CheckoutSession, Order, Product } from '../generated/types.gen.js';

export function product(overrides: Partial<Product> = {}): Product {
  return {
    id: 'chair-1',
    title: 'Oak chair',
    description: 'A chair',
    vendor: 'Acme',
    category: 'Furniture > Chairs',
    price: 49.5,
    currency: 'USD',
    availability: { status: 'in_stock', quantity: 20, policy: 'deny' },
    tags: [],
    attributes: {},
    images: [],
    variants: [],
    ...overrides,
  };
}

export function session(overrides: Partial<CheckoutSession> = {}): CheckoutSession {
  return {
    id: 'cs_1',
    status: 'open',
    currency: 'USD',
    line_items: [{ product_id: 'chair-1', variant_sku: 'chair-1', quantity: 1, title: 'Oak chair', unit_price: 49.5, currency: 'USD', subtotal: 49.5, discount: 0 }],
    shipping_address: null,
    shipping_address_id: null,
    saved_addresses: [],
    customer: null,
    customer_id: null,
    payment_method: 'demo_card',
    shipping: { method: 'standard', amount: 5, currency: 'USD' },
    shipping_options: [{ id: 'standard', title: 'Standard shipping', method: 'standard', amount: 5, original_amount: 5, promotion: null, currency: 'USD', delivery_estimate: null }],
    shipping_option_id: 'standard',
    shipping_option_chosen: false,
    shipping_unavailable: null,
    discount_codes: [],
    discounts: { applied: [], rejected: [] },
    tax: { rate: 0, amount: 0, currency: 'USD' },
    amounts: { subtotal: 49.5, discount: 0, tax: 0, shipping: 5, total: 54.5, currency: 'USD' },
    client_secret: 'cs_1_secret',
    created_at: '2026-11-22T10:00:00.000Z',
    order: null,
    ...overrides,
  };
}

export function order(overrides: Partial<Order> = {}): Order {
  return {
    id: 'ord_1',
    status: 'created',
    checkout_session_id: 'cs_1',
    currency: 'USD',
    line_items: [{ product_id: 'chair-1', variant_sku: 'chair-1', quantity: 1, title: 'Oak chair', unit_price: 49.5, currency: 'USD', subtotal: 49.5, discount: 0 }],
    shipping: { method: 'standard', amount: 5, currency: 'USD' },
    tax: { rate: 0, amount: 0, currency: 'USD' },
    amounts: { subtotal: 49.5, discount: 0, tax: 0, shipping: 5, total: 54.5, currency: 'USD' },
    discounts: { applied: [], rejected: [] },
    customer: null,
    customer_id: null,
    shipping_address: { country: 'US', state: 'CA' },
    fulfillments: [],
    refunds: [],
    refunded_amount: 0,
    payment: null,
    canceled_at: null,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Request-Id': `req_${status}`, ...headers } });
}
