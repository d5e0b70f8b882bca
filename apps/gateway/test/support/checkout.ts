/** Catalog fixtures and a small fetch client for the checkout tests. */
import type { CheckoutSession, Product, Variant } from '../../src/contract/types.js';
import { inventory, type InventoryPolicy } from '../../src/catalog/inventory.js';
import { product } from './fixtures.js';

export interface VariantSpec {
  sku?: string;
  price?: number;
  currency?: string;
  quantity?: number;
  policy?: InventoryPolicy;
  /** Omitted from the catalog record when undefined (the contract then means true). */
  requires_shipping?: boolean;
  taxable?: boolean;
}

function variant(productId: string, index: number, spec: VariantSpec): Variant {
  const quantity = spec.quantity ?? 20;
  return {
    sku: spec.sku ?? `${productId}-v${index}`,
    title: `Variant ${index}`,
    price: spec.price ?? 10,
    currency: spec.currency ?? 'USD',
    ...(spec.requires_shipping === undefined ? {} : { requires_shipping: spec.requires_shipping }),
    ...(spec.taxable === undefined ? {} : { taxable: spec.taxable }),
    attributes: {},
    inventory: inventory(quantity, spec.policy ?? 'deny'),
  };
}

/** A product with the given variants (one USD variant at 10.00 with 20 units by default). */
export function stocked(id: string, variants: VariantSpec[] = [{}], overrides: Partial<Product> = {}): Product {
  const built = variants.map((spec, index) => variant(id, index, spec));
  return product({ id, title: `Title of ${id}`, price: built[0]?.price ?? 10, currency: built[0]?.currency ?? 'USD', variants: built, ...overrides });
}

/** A product without variants: bought as itself, with its own stock. */
export function bare(id: string, price: number, quantity: number, policy: InventoryPolicy = 'deny', currency = 'USD'): Product {
  return product({ id, title: `Title of ${id}`, price, currency, variants: [], availability: inventory(quantity, policy) });
}

export interface Reply<T = { checkout_session: CheckoutSession }> {
  status: number;
  body: T & { detail?: string; code?: string; param?: string };
}

/** Checkout calls over plain fetch: status and parsed body, whatever the status. */
export function checkoutCalls(baseUrl: string, key: string) {
  const call = async (method: string, path: string, json?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = { 'X-ACP-API-Key': key };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    create: (body: unknown) => call('POST', '/checkout_sessions', body),
    get: (id: string) => call('GET', `/checkout_sessions/${encodeURIComponent(id)}`),
    update: (id: string, body: unknown) => call('PATCH', `/checkout_sessions/${encodeURIComponent(id)}`, body),
    complete: (id: string) => call('POST', `/checkout_sessions/${encodeURIComponent(id)}/complete`),
    cancel: (id: string) => call('POST', `/checkout_sessions/${encodeURIComponent(id)}/cancel`),
    product: (id: string) => call('GET', `/acp/products/${encodeURIComponent(id)}`) as unknown as Promise<Reply<Product>>,
  };
}

export type CheckoutCalls = ReturnType<typeof checkoutCalls>;

/** An address complete enough to ship to. */
export const SF_ADDRESS = { name: 'Ada Lovelace', line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
