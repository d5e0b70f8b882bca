/**
 * The discount tables: each code and promotion as the merchant's file gave it (the record, kept
 * for export and read back through parseDiscount), and each completed order's use of a code.
 * Redemption holds a code's usage limit in one statement: the row lock serializes concurrent
 * completions, and the limit is checked again on the row as it is after the wait. An import
 * announces itself with NOTIFY discounts_changed, so that every gateway forgets its copy.
 */
import type { Database } from '../db/database.js';
import { NOW_UTC } from '../db/sql-time.js';
import { sql, type Statement } from '../db/statement.js';
import type { Tx } from '../db/transaction.js';
import { ensureMerchant } from '../merchants/merchant-store.js';
import { codeKey } from './discount.js';
import type { DiscountRecord } from './parse-discount.js';

export const DISCOUNTS_CHANNEL = 'discounts_changed';

export interface Redemption {
  merchantId: string;
  /** The codes' keys (codeKey). */
  keys: readonly string[];
  orderId: string;
  /** The buyer's email (per-customer limits); none: those limits are not checked. */
  email: string | undefined;
}

/**
 * CTEs that count one use of each code, never past its limits: `code_locks` locks the codes'
 * rows in key order (two completions that share codes never wait on each other crosswise);
 * `redeemed` increments those under their limits — after waiting for a lock, PostgreSQL checks the
 * limit again on the row as the other transaction left it — and is the keys counted;
 * `redemptions_written` records each use with the order. Usable inside a larger statement.
 *
 * A buyer's own uses are counted as of the statement's snapshot, which a wait for a code's lock
 * does not renew: concurrent uses by one email are kept apart before this statement — checkout's
 * completion remembers the buyer first, holding the customer's row (checkout/completion-buyer.ts).
 */
export function redemptionCtes({ merchantId, keys, orderId, email }: Redemption): Statement {
  const buyer = email?.trim().toLowerCase() || null;
  return sql`
    code_locks AS MATERIALIZED (
      SELECT key FROM discount_codes WHERE merchant_id = ${merchantId} AND key = ANY(${[...keys]}::text[])
      ORDER BY key COLLATE "C" FOR UPDATE),
    redeemed AS (
      UPDATE discount_codes AS d SET redemptions = d.redemptions + 1 FROM code_locks AS l
      WHERE d.merchant_id = ${merchantId} AND d.key = l.key
        AND (d.usage_limit IS NULL OR d.redemptions < d.usage_limit)
        AND (d.per_customer_limit IS NULL OR ${buyer}::text IS NULL OR (
          SELECT count(*) FROM discount_redemptions AS r
          WHERE r.merchant_id = d.merchant_id AND r.key = d.key AND r.email = ${buyer}::text) < d.per_customer_limit)
      RETURNING d.key),
    redemptions_written AS (
      INSERT INTO discount_redemptions (merchant_id, key, order_id, email, created_at)
      SELECT ${merchantId}, key, ${orderId}, ${buyer}::text, ${NOW_UTC} FROM redeemed)`;
}

/** A record of the file, checked, beside the raw JSON it came from. */
export interface StoredRecord {
  raw: Record<string, unknown>;
  parsed: DiscountRecord;
}

export class DiscountStore {
  constructor(private readonly db: Database) {}

  /**
   * Adds or replaces the merchant's codes (by code, case-insensitively; redemptions so far are
   * kept) and promotions (by id), all in one transaction; the merchant is created if new.
   */
  async upsert(merchantId: string, records: readonly StoredRecord[]): Promise<{ codes: number; promotions: number }> {
    const codes = records.filter((r) => r.parsed.type === 'code');
    const promotions = records.filter((r) => r.parsed.type === 'promotion');
    await this.db.transaction(async (tx) => {
      await ensureMerchant(tx, merchantId);
      for (const { raw, parsed } of codes) {
        if (parsed.type !== 'code') continue;
        const { code } = parsed;
        await tx.execute(sql`
          INSERT INTO discount_codes (merchant_id, key, definition, usage_limit, per_customer_limit, created_at, updated_at)
          VALUES (${merchantId}, ${codeKey(code.code)}, ${JSON.stringify(raw)}::jsonb, ${code.usageLimit ?? null}::int, ${code.perCustomerLimit ?? null}::int, ${NOW_UTC}, ${NOW_UTC})
          ON CONFLICT (merchant_id, key) DO UPDATE SET definition = EXCLUDED.definition, usage_limit = EXCLUDED.usage_limit,
            per_customer_limit = EXCLUDED.per_customer_limit, updated_at = EXCLUDED.updated_at`);
      }
      const [last] = await tx.query<{ position: number | null }>(sql`SELECT max(position) AS position FROM promotions WHERE merchant_id = ${merchantId}`);
      let position = (last?.position ?? -1) + 1;
      for (const { raw, parsed } of promotions) {
        if (parsed.type !== 'promotion') continue;
        await tx.execute(sql`
          INSERT INTO promotions (merchant_id, id, definition, position, created_at, updated_at)
          VALUES (${merchantId}, ${parsed.promotion.id}, ${JSON.stringify(raw)}::jsonb, ${position++}::int, ${NOW_UTC}, ${NOW_UTC})
          ON CONFLICT (merchant_id, id) DO UPDATE SET definition = EXCLUDED.definition, updated_at = EXCLUDED.updated_at`);
      }
      await tx.execute(sql`SELECT pg_notify(${DISCOUNTS_CHANNEL}, ${merchantId})`);
    });
    return { codes: codes.length, promotions: promotions.length };
  }

  /**
   * Removes a code (by key, with its redemptions) or a promotion (by id); the record removed, or
   * undefined when there was none. Orders keep the discounts they were given.
   */
  async remove(merchantId: string, what: { key: string } | { promotionId: string }): Promise<Record<string, unknown> | undefined> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{ definition: Record<string, unknown> | string }>(
        'key' in what
          ? sql`DELETE FROM discount_codes WHERE merchant_id = ${merchantId} AND key = ${what.key} RETURNING definition`
          : sql`DELETE FROM promotions WHERE merchant_id = ${merchantId} AND id = ${what.promotionId} RETURNING definition`,
      );
      const [row] = rows;
      if (!row) return undefined;
      await tx.execute(sql`SELECT pg_notify(${DISCOUNTS_CHANNEL}, ${merchantId})`);
      return typeof row.definition === 'string' ? (JSON.parse(row.definition) as Record<string, unknown>) : row.definition;
    });
  }

  /** The merchant's records as stored: codes by key, then promotions in the order they were first imported. */
  async records(merchantId: string): Promise<{ raw: Record<string, unknown> }[]> {
    const rows = await this.db.sql.query<{ definition: Record<string, unknown> | string }>(sql`
      SELECT definition FROM (
        SELECT 0 AS part, key AS sort_key, 0 AS position, definition FROM discount_codes WHERE merchant_id = ${merchantId}
        UNION ALL
        SELECT 1, id, position, definition FROM promotions WHERE merchant_id = ${merchantId}) AS r
      ORDER BY part, position, sort_key COLLATE "C"`);
    return rows.map((row) => ({ raw: typeof row.definition === 'string' ? (JSON.parse(row.definition) as Record<string, unknown>) : row.definition }));
  }

  /**
   * Counts one use of each code for a completed order, in the completion's transaction. Returns
   * the keys that could not be redeemed (a usage limit, or the buyer's own limit, reached), so
   * the caller can roll the completion back; a code used is never counted past its limit.
   * (Checkout's completion runs the same CTEs inside its own statement: redemptionCtes.)
   */
  async redeem(tx: Tx, merchantId: string, keys: readonly string[], orderId: string, email: string | undefined): Promise<string[]> {
    if (keys.length === 0) return [];
    const rows = await tx.query<{ key: string }>(sql`WITH ${redemptionCtes({ merchantId, keys, orderId, email })} SELECT key FROM redeemed`);
    const redeemed = new Set(rows.map((row) => row.key));
    return keys.filter((key) => !redeemed.has(key));
  }

  /** The email off the merchant's redemptions by this buyer, in the caller's transaction (an erasure: the uses stay counted). */
  async anonymizeRedemptions(tx: Tx, merchantId: string, email: string): Promise<number> {
    return tx.execute(sql`UPDATE discount_redemptions SET email = NULL WHERE merchant_id = ${merchantId} AND email = ${email}`);
  }

  /** How often each code was used: by every buyer, and by this one (lower-cased email). */
  async usage(merchantId: string, keys: readonly string[], email: string | undefined, tx?: Tx): Promise<Map<string, { total: number; customer: number }>> {
    if (keys.length === 0) return new Map();
    const buyer = email?.trim().toLowerCase() || null;
    const rows = await (tx ?? this.db.sql).query<{ key: string; total: number; customer: number }>(sql`
      SELECT d.key, d.redemptions AS total,
        (SELECT count(*)::int FROM discount_redemptions AS r WHERE r.merchant_id = d.merchant_id AND r.key = d.key AND r.email = ${buyer}::text) AS customer
      FROM discount_codes AS d WHERE d.merchant_id = ${merchantId} AND d.key = ANY(${[...keys]}::text[])`);
    return new Map(rows.map((row) => [row.key, { total: Number(row.total), customer: Number(row.customer) }]));
  }
}
