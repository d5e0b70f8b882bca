/**
 * What the checkout store writes of a session, as its columns and statements: the totals' columns,
 * the lines (from one JSON parameter: amounts as text, which a bigint column reads exactly) and
 * JSON columns' parameters. Used by checkout-store.ts alone.
 */
import type { Address, Customer } from '../contract/types.js';
import { sql, type Statement } from '../db/statement.js';
import type { CartLine } from './line-resolver.js';
import { lineSubtotal, type Totals } from './pricing/pricing.js';
import type { SavedAddress } from './session-customer.js';
import type { ProtocolState, SessionLine } from './session.js';

export interface SessionFields {
  currency: string;
  shippingAddress: Address | null;
  customer: Customer | null;
  buyer: { customerId: string | null; shippingAddressId: string | null; savedAddresses: SavedAddress[] | null };
  paymentMethod: string;
  totals: Totals;
  /** The discount codes the buyer asked for, in the order given. */
  discountCodes: readonly string[];
  fulfillmentOptionId?: string | null;
  protocolState?: ProtocolState | null;
}

export interface NewSession extends SessionFields {
  id: string;
  merchantId: string;
  clientSecret: string;
  /** The payment the provider opened for it (session-payment.ts), when it did. */
  paymentReference?: string | null;
  lines: readonly CartLine[];
}

export function totalsColumns(fields: SessionFields) {
  const { totals } = fields;
  return {
    currency: fields.currency,
    paymentMethod: fields.paymentMethod,
    shippingMethod: totals.shippingMethod,
    shippingAmount: totals.shipping,
    shippingOptions: totals.shippingOptions,
    taxRate: totals.taxRate,
    taxAmount: totals.tax,
    subtotal: totals.subtotal,
    discountAmount: totals.discount,
    total: totals.total,
    discountCodes: [...fields.discountCodes],
    discounts: totals.discounts,
  };
}

/** Writes a session's lines (from one JSON parameter: amounts as text, which a bigint column reads exactly). */
export function insertLines(sessionId: string, lines: readonly SessionLine[]): Statement {
  const json = JSON.stringify(lines, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  return sql`
    INSERT INTO line_items (session_id, position, product_id, variant_sku, quantity, title, unit_amount, subtotal, requires_shipping, taxable, category, discount)
    SELECT ${sessionId}::text, r.position, r."productId", r."variantSku", r.quantity, r.title, r."unitAmount", r.subtotal, r."requiresShipping", r.taxable, r.category, r.discount
    FROM jsonb_to_recordset(${json}::jsonb) AS r(position int, "productId" text, "variantSku" text, quantity int,
      title text, "unitAmount" bigint, subtotal bigint, "requiresShipping" boolean, taxable boolean, category text, discount bigint)`;
}

/** Sets each line's share of the discounts (the cart unchanged, its discounts repriced). */
export function updateLineDiscounts(sessionId: string, lines: readonly SessionLine[]): Statement {
  const json = JSON.stringify(lines.map((line) => ({ position: line.position, discount: line.discount.toString() })));
  return sql`
    UPDATE line_items AS l SET discount = r.discount
    FROM jsonb_to_recordset(${json}::jsonb) AS r(position int, discount bigint)
    WHERE l.session_id = ${sessionId} AND l.position = r.position`;
}

/** A JSON column's parameter: the value as JSON text, or SQL NULL. */
export const jsonText = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** JSON text with bigint amounts as strings (read back exactly by session-rows.ts). */
export const amountsJson = (value: unknown) => JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));

/** The cart's lines as stored, each with its share of the discounts (`Totals.lineDiscounts`, in cart order). */
export function lineRows(lines: readonly CartLine[], discounts: readonly bigint[]): SessionLine[] {
  return lines.map((line, position) => ({
    position,
    productId: line.productId,
    variantSku: line.variantSku,
    quantity: line.quantity,
    title: line.title,
    unitAmount: line.unitAmount,
    subtotal: lineSubtotal(line),
    requiresShipping: line.requiresShipping,
    taxable: line.taxable,
    category: line.category,
    discount: discounts[position] ?? 0n,
  }));
}
