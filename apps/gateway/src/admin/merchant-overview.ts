/**
 * What an operator sees first of a merchant (the console's home, GET /admin/merchants/{id}/overview):
 * today's orders and revenue per currency (UTC day; revenue is the orders' totals as placed,
 * before refunds), orders per day over the last 14 days, the payment operations needing
 * attention (failed, awaiting the buyer's action, or pending longer than PAYMENT_STALE_MS), the
 * webhook endpoints failing now, and the catalog imports running in this process.
 */
import { currencyExponent } from '../kernel/money/currency-exponents.js';
import type { Database } from '../db/database.js';
import { iso } from '../db/sql.js';
import { utc } from '../db/sql-time.js';
import { sql } from '../db/statement.js';

export const CHART_DAYS = 14;
/** A payment operation pending longer than this is stuck: its worker retries every few seconds. */
export const PAYMENT_STALE_MS = 15 * 60 * 1000;
const ATTENTION_SHOWN = 10;

export interface CurrencyTotals {
  currency: string;
  orders: number;
  /** Major units of `currency`. */
  revenue: number;
}

export interface PaymentAttention {
  id: string;
  orderId: string | null;
  kind: string;
  state: string;
  provider: string;
  amount: number;
  currency: string;
  lastError: string | null;
  createdAt: string;
}

export interface OrderActivity {
  since: string;
  today: CurrencyTotals[];
  ordersByDay: { date: string; orders: number }[];
  payments: { count: number; items: PaymentAttention[] };
}

const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
const major = (minor: string, currency: string) => Number(minor) / 10 ** currencyExponent(currency);

export class MerchantOverviewStore {
  constructor(private readonly db: Pick<Database, 'sql'>) {}

  async activity(merchantId: string, now = new Date()): Promise<OrderActivity> {
    const today = startOfUtcDay(now);
    const first = new Date(today.getTime() - (CHART_DAYS - 1) * 86_400_000);
    const stale = new Date(now.getTime() - PAYMENT_STALE_MS);
    const needsAttention = sql`merchant_id = ${merchantId} AND (state IN ('failed', 'requires_action') OR (state = 'pending' AND created_at < ${utc(stale)}))`;
    const [totals, days, payments, count] = await Promise.all([
      this.db.sql.query<{ currency: string; orders: number; revenue: string }>(sql`
        SELECT currency, count(*)::int4 AS orders, sum(total)::text AS revenue
          FROM orders WHERE merchant_id = ${merchantId} AND created_at >= ${utc(today)}
         GROUP BY currency ORDER BY currency`),
      this.db.sql.query<{ day: string; orders: number }>(sql`
        SELECT to_char(date_trunc('day', created_at), 'YYYY-MM-DD') AS day, count(*)::int4 AS orders
          FROM orders WHERE merchant_id = ${merchantId} AND created_at >= ${utc(first)}
         GROUP BY 1`),
      this.db.sql.query<{ id: string; order_id: string | null; kind: string; state: string; provider: string; amount: string; currency: string; last_error: string | null; created_at: string }>(sql`
        SELECT id, order_id, kind::text, state::text, provider, amount::text, currency, last_error, ${iso(sql`created_at`)} AS created_at
          FROM payment_operations WHERE ${needsAttention}
         ORDER BY created_at DESC LIMIT ${ATTENTION_SHOWN}`),
      this.db.sql.query<{ n: number }>(sql`SELECT count(*)::int4 AS n FROM payment_operations WHERE ${needsAttention}`),
    ]);
    const byDay = new Map(days.map((d) => [d.day, d.orders]));
    const ordersByDay = Array.from({ length: CHART_DAYS }, (_, i) => {
      const date = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      return { date, orders: byDay.get(date) ?? 0 };
    });
    return {
      since: today.toISOString(),
      today: totals.map((t) => ({ currency: t.currency, orders: t.orders, revenue: major(t.revenue, t.currency) })),
      ordersByDay,
      payments: {
        count: count[0]?.n ?? 0,
        items: payments.map((p) => ({ id: p.id, orderId: p.order_id, kind: p.kind, state: p.state, provider: p.provider, amount: major(p.amount, p.currency), currency: p.currency, lastError: p.last_error, createdAt: p.created_at })),
      },
    };
  }
}
