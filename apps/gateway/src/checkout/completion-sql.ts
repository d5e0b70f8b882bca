/**
 * A completion's writes as one statement, so that completing costs one round trip whatever the
 * size of the cart:
 *
 * - stock: every take's row is locked in the takes' order (the order planStockTakes fixes for every
 *   completion, so two completions never wait on each other crosswise), then decremented only when
 *   the policy is `continue` or enough units are left. Under READ COMMITTED, PostgreSQL re-checks
 *   that condition on the newest version of a row whose lock it waited for, so no interleaving can
 *   oversell. A `continue` backorder leaves the quantity at 0 (the contract's Inventory is never
 *   negative); a product without variants is its own stock (its id is the take's SKU);
 * - the order, and the session marked `completed`, at the transaction's time;
 * - one use of each discount code the session was priced with, never past a code's limits
 *   (discounts/discount-store.ts: redemptionCtes);
 * - the outbox's event and deliveries (outbox.ts);
 * - NOTIFY catalog_changed with the products whose stock changed, heard when the transaction commits;
 * - with a payment, its authorization settled and its capture recorded (payment-operation-store.ts:
 *   captureCtes); `held` is false when the authorization was no longer the completion's.
 *
 * The answer is the positions of the takes that were filled and the codes redeemed; the caller rolls
 * back unless all were.
 *
 * Stock is the catalog's table, written here on purpose: taking it in the same statement as the
 * order is what makes a completion one round trip and oversell-proof (a take the catalog made apart
 * would cost a round trip and a lock held across it). The hot path's exception to "one owner per
 * table" (issue 39), with completion-read-store.ts; every other read of the catalog goes through
 * catalog/catalog-reader-store.ts.
 */
import { redemptionCtes } from '../discounts/discount-store.js';
import { utc } from '../db/sql-time.js';
import { sql, type Statement } from '../db/statement.js';
import type { OutboxEntry } from '../webhooks/outbox.js';
import type { StockTake } from './stock.js';

export interface NewOrder {
  id: string;
  merchantId: string;
  sessionId: string;
  currency: string;
  total: bigint;
}

export interface CompletionWrites {
  order: NewOrder;
  sessionId: string;
  takes: readonly StockTake[];
  /** The transaction's time, to the millisecond. */
  now: Date;
  /** The catalog_changed payload, or null when no stock changes. */
  notice: string | null;
  outbox: OutboxEntry;
  /** The discount codes (keys) to redeem with the order, and the buyer's normalized email (per-customer limits; null: none known). */
  codes: readonly string[];
  email: string | null;
  /** The customer the buyer is and the saved address shipped to (remembered by the completion), when known. */
  customerId: string | null;
  shippingAddressId: string | null;
  /** The payment's CTEs (captureCtes), when the completion took one. */
  payment?: Statement | undefined;
}

export function completionStatement({ order, sessionId, takes, now, notice, outbox, codes, email, customerId, shippingAddressId, payment }: CompletionWrites): Statement {
  const merchantId = order.merchantId;
  const rows = JSON.stringify(takes.map((take, ord) => ({ ord, product_id: take.productId, sku: take.sku, quantity: take.quantity })));
  return sql`
    WITH takes AS (
      SELECT * FROM jsonb_to_recordset(${rows}::jsonb) AS t(ord int, product_id text, sku text, quantity int)),
    variant_rows AS MATERIALIZED (
      SELECT t.ord, t.quantity, v.product_id, v.sku FROM takes AS t
      JOIN variants AS v ON v.merchant_id = ${merchantId} AND v.product_id = t.product_id AND v.sku = t.sku
      ORDER BY t.ord FOR UPDATE OF v),
    variants_taken AS (
      UPDATE variants AS v SET quantity = GREATEST(v.quantity - r.quantity, 0) FROM variant_rows AS r
      WHERE v.merchant_id = ${merchantId} AND v.product_id = r.product_id AND v.sku = r.sku
        AND (v.policy = 'continue' OR v.quantity >= r.quantity)
      RETURNING r.ord),
    product_rows AS MATERIALIZED (
      SELECT t.ord, t.quantity, p.id FROM takes AS t
      JOIN products AS p ON p.merchant_id = ${merchantId} AND p.id = t.product_id
      WHERE t.sku = t.product_id AND NOT EXISTS (SELECT 1 FROM variants AS v WHERE v.merchant_id = ${merchantId} AND v.product_id = p.id)
      ORDER BY t.ord FOR UPDATE OF p),
    products_taken AS (
      UPDATE products AS p SET quantity = GREATEST(p.quantity - r.quantity, 0) FROM product_rows AS r
      WHERE p.merchant_id = ${merchantId} AND p.id = r.id AND (p.policy = 'continue' OR p.quantity >= r.quantity)
      RETURNING r.ord),
    new_order AS (
      INSERT INTO orders (id, merchant_id, checkout_session_id, status, currency, total, created_at, updated_at)
      VALUES (${order.id}, ${merchantId}, ${order.sessionId}, 'created'::"OrderStatus", ${order.currency}, ${order.total}, ${utc(now)}, ${utc(now)})),
    completed AS (
      UPDATE checkout_sessions SET status = 'completed'::"CheckoutStatus", updated_at = ${utc(now)},
        customer_id = ${customerId}::text, shipping_address_id = ${shippingAddressId}::text WHERE id = ${sessionId}),
    ${codes.length ? sql`${redemptionCtes({ merchantId, keys: codes, orderId: order.id, email: email ?? undefined })},` : sql`redeemed AS (SELECT NULL::text AS key WHERE false),`}
    ${payment ? sql`${payment},` : sql``}
    ${outbox.ctes}
    SELECT ARRAY(SELECT ord FROM variants_taken UNION ALL SELECT ord FROM products_taken) AS taken,
           ${payment ? sql`EXISTS (SELECT 1 FROM payment_settled)` : sql`true`} AS held,
           ARRAY(SELECT key FROM redeemed) AS redeemed,
           (SELECT count(*)::int FROM (SELECT pg_notify('catalog_changed', ${notice}::text) WHERE ${notice}::text IS NOT NULL) AS n) AS notified`;
}
