/**
 * What a completion reads before it authorizes a payment, in one round trip: the session as it is,
 * and the stock of its lines' SKUs — so that nothing is authorized for a cart the stock cannot fill
 * (session-completion.ts). A read, not a reservation: the completion's transaction decides.
 *
 * The catalog's tables are the catalog's to read (catalog/catalog-reader-store.ts); this statement
 * is the exception, on purpose: joined to the session's lines it costs no round trip of its own on
 * the completion's path, where asking the catalog apart would cost one (issue 39: one owner per
 * table, with this and completion-sql.ts as the hot path's exceptions).
 */
import type { Database } from '../db/database.js';
import { sql } from '../db/statement.js';
import { decodeWholeSession, WHOLE_SESSION, type WholeSessionRow } from './session-rows.js';
import type { Session } from './session.js';
import type { StockLevel } from './stock.js';

const STOCK_OF_S = sql`(SELECT coalesce(json_agg(stock), '[]')::text FROM (
    SELECT json_build_object('productId', v.product_id, 'sku', v.sku, 'quantity', v.quantity, 'policy', v.policy) AS stock
    FROM variants AS v JOIN line_items AS l ON l.session_id = s.id AND v.product_id = l.product_id AND v.sku = l.variant_sku
    WHERE v.merchant_id = s.merchant_id
    UNION ALL
    SELECT json_build_object('productId', p.id, 'sku', p.id, 'quantity', p.quantity, 'policy', p.policy)
    FROM products AS p JOIN line_items AS l ON l.session_id = s.id AND p.id = l.product_id AND l.variant_sku = p.id
    WHERE p.merchant_id = s.merchant_id AND NOT EXISTS (SELECT 1 FROM variants AS v WHERE v.merchant_id = p.merchant_id AND v.product_id = p.id)) AS levels)`;

export class CompletionReadStore {
  constructor(private readonly db: Pick<Database, 'sql'>) {}

  /** The merchant's session and the stock of its lines' SKUs; null when unknown (or another merchant's). */
  async sessionWithStock(merchantId: string, id: string): Promise<{ session: Session; stock: StockLevel[] } | null> {
    const [row] = await this.db.sql.query<WholeSessionRow & { stock: string }>(sql`
      SELECT ${WHOLE_SESSION}, ${STOCK_OF_S} AS stock FROM checkout_sessions AS s WHERE s.id = ${id} AND s.merchant_id = ${merchantId}`);
    return row ? { session: decodeWholeSession(row), stock: JSON.parse(row.stock) as StockLevel[] } : null;
  }
}
