/**
 * Sessions, lines and orders as checkout's statements return them: one JSON text per row, amounts
 * as text (a JSON number would not hold every bigint) and times as ISO text — the same on every
 * driver (db/sql.ts) — and decoded into the domain's Session (session.ts).
 */
import { iso } from '../db/sql.js';
import { sql } from '../db/statement.js';
import type { ShippingOptionQuote } from '../shipping/shipping-options.js';
import type { Session, SessionDiscounts, SessionLine, SessionOrder } from './session.js';

/** A line of `line_items AS l` as JSON. */
export const LINE_JSON = sql`json_build_object('position', l.position, 'productId', l.product_id, 'variantSku', l.variant_sku,
  'quantity', l.quantity, 'title', l.title, 'unitAmount', l.unit_amount::text, 'subtotal', l.subtotal::text,
  'requiresShipping', l.requires_shipping, 'taxable', l.taxable, 'category', l.category, 'discount', l.discount::text)`;

/** The session of `checkout_sessions AS s` as JSON text, without its lines and order. */
export const SESSION_JSON = sql`json_build_object('id', s.id, 'merchantId', s.merchant_id, 'status', s.status, 'currency', s.currency,
  'shippingAddress', s.shipping_address, 'customer', s.customer, 'paymentMethod', s.payment_method, 'clientSecret', s.client_secret, 'paymentReference', s.payment_reference,
  'shippingMethod', s.shipping_method, 'shippingAmount', s.shipping_amount::text, 'taxRate', s.tax_rate, 'taxAmount', s.tax_amount::text,
  'subtotal', s.subtotal::text, 'total', s.total::text, 'fulfillmentOptionId', s.fulfillment_option_id, 'shippingOptions', s.shipping_options, 'protocolState', s.protocol_state,
  'discountCodes', s.discount_codes, 'discountAmount', s.discount_amount::text, 'discounts', s.discounts,
  'customerId', s.customer_id, 'shippingAddressId', s.shipping_address_id, 'savedAddresses', s.saved_addresses,
  'createdAt', ${iso(sql`s.created_at`)}, 'updatedAt', ${iso(sql`s.updated_at`)})::text`;

/** The lines of session `s`, in cart order, as one JSON array text. */
export const LINES_OF_S = sql`(SELECT coalesce(json_agg(${LINE_JSON} ORDER BY l.position), '[]')::text FROM line_items AS l WHERE l.session_id = s.id)`;

/** The order of session `s` as JSON text, or NULL. */
const ORDER_OF_S = sql`(SELECT json_build_object('id', o.id, 'status', o.status, 'currency', o.currency, 'total', o.total::text,
  'createdAt', ${iso(sql`o.created_at`)})::text FROM orders AS o WHERE o.checkout_session_id = s.id)`;

/** Every column of a whole session; decode a row with decodeWholeSession. */
export const WHOLE_SESSION = sql`${SESSION_JSON} AS session, ${LINES_OF_S} AS lines, ${ORDER_OF_S} AS "order"`;

export interface WholeSessionRow {
  session: string;
  lines: string;
  order: string | null;
}

type SessionColumns = Omit<Session, 'lineItems' | 'order'>;
type AsText<T, K extends keyof T> = Omit<T, K> & { [P in K]: string };

type StoredOption = Omit<ShippingOptionQuote, 'amount' | 'originalAmount'> & { amount: string; originalAmount?: string };
type StoredDiscounts = { applied: (Omit<SessionDiscounts['applied'][number], 'amount' | 'allocation'> & { amount: string; allocation: string[] })[]; rejected: SessionDiscounts['rejected'] };

function decodeOption({ amount, originalAmount, ...option }: StoredOption): ShippingOptionQuote {
  return { ...option, amount: BigInt(amount), ...(originalAmount !== undefined ? { originalAmount: BigInt(originalAmount) } : {}) };
}

function decodeDiscounts(stored: StoredDiscounts | null): SessionDiscounts {
  if (!stored) return { applied: [], rejected: [] };
  return {
    applied: stored.applied.map((discount) => ({ ...discount, amount: BigInt(discount.amount), allocation: discount.allocation.map((part) => BigInt(part)) })),
    rejected: stored.rejected,
  };
}

export function decodeSession(text: string): SessionColumns {
  const row = JSON.parse(text) as Omit<AsText<SessionColumns, 'shippingAmount' | 'taxAmount' | 'subtotal' | 'discountAmount' | 'total' | 'createdAt' | 'updatedAt'>, 'shippingOptions' | 'discounts'> & {
    shippingOptions?: StoredOption[] | null;
    discounts: StoredDiscounts | null;
  };
  return {
    ...row,
    shippingOptions: row.shippingOptions ? row.shippingOptions.map(decodeOption) : null,
    discounts: decodeDiscounts(row.discounts),
    discountAmount: BigInt(row.discountAmount),
    shippingAmount: BigInt(row.shippingAmount),
    taxAmount: BigInt(row.taxAmount),
    subtotal: BigInt(row.subtotal),
    total: BigInt(row.total),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
}

export function decodeLines(text: string): SessionLine[] {
  return (JSON.parse(text) as AsText<SessionLine, 'unitAmount' | 'subtotal' | 'discount'>[]).map((line) => ({
    ...line,
    unitAmount: BigInt(line.unitAmount),
    subtotal: BigInt(line.subtotal),
    discount: BigInt(line.discount),
  }));
}

function decodeOrder(text: string | null): SessionOrder | null {
  if (text === null) return null;
  const order = JSON.parse(text) as AsText<SessionOrder, 'total' | 'createdAt'>;
  return { ...order, total: BigInt(order.total), createdAt: new Date(order.createdAt) };
}

export function decodeWholeSession(row: WholeSessionRow): Session {
  return { ...decodeSession(row.session), lineItems: decodeLines(row.lines), order: decodeOrder(row.order) };
}
