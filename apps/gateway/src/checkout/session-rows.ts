/**
 * Sessions and lines as checkout's statements return them: one JSON text per row, amounts as text
 * (a JSON number would not hold every bigint) and times as ISO text — the same on every driver
 * (db/sql.ts) — and decoded into the rows the domain works with.
 */
import { iso } from '../db/sql.js';
import { Prisma as SQL } from '../generated/prisma/client.js';
import type { CheckoutSession as SessionRow, LineItem as LineItemRow } from '../generated/prisma/client.js';

/** A line as JSON (amounts as text: a JSON number would not hold every bigint). */
export const LINE_JSON = SQL.sql`json_build_object('sessionId', l.session_id, 'position', l.position, 'productId', l.product_id, 'variantSku', l.variant_sku,
  'quantity', l.quantity, 'title', l.title, 'unitAmount', l.unit_amount::text, 'subtotal', l.subtotal::text,
  'requiresShipping', l.requires_shipping, 'taxable', l.taxable)`;

/** A session row as JSON (amounts as text, times as ISO text): the same on every driver. */
export const SESSION_JSON = SQL.sql`json_build_object('id', s.id, 'merchantId', s.merchant_id, 'status', s.status, 'currency', s.currency,
  'shippingAddress', s.shipping_address, 'customer', s.customer, 'paymentMethod', s.payment_method, 'clientSecret', s.client_secret,
  'shippingMethod', s.shipping_method, 'shippingAmount', s.shipping_amount::text, 'taxRate', s.tax_rate, 'taxAmount', s.tax_amount::text,
  'subtotal', s.subtotal::text, 'total', s.total::text, 'fulfillmentOptionId', s.fulfillment_option_id, 'protocolState', s.protocol_state,
  'createdAt', ${iso(SQL.sql`s.created_at`)}, 'updatedAt', ${iso(SQL.sql`s.updated_at`)})::text`;

type AsText<T, K extends keyof T> = Omit<T, K> & { [P in K]: string };

export function decodeSession(text: string): SessionRow {
  const row = JSON.parse(text) as AsText<SessionRow, 'shippingAmount' | 'taxAmount' | 'subtotal' | 'total' | 'createdAt' | 'updatedAt'>;
  return {
    ...row,
    shippingAmount: BigInt(row.shippingAmount),
    taxAmount: BigInt(row.taxAmount),
    subtotal: BigInt(row.subtotal),
    total: BigInt(row.total),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
}

export function decodeLines(text: string): LineItemRow[] {
  return (JSON.parse(text) as (Omit<LineItemRow, 'unitAmount' | 'subtotal'> & { unitAmount: string; subtotal: string })[]).map((line) => ({
    ...line,
    unitAmount: BigInt(line.unitAmount),
    subtotal: BigInt(line.subtotal),
  }));
}
