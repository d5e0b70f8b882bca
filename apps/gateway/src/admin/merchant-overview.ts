/**
 * What an operator sees first of a merchant (the console's home, GET /admin/merchants/{id}/overview):
 * today's orders and revenue per currency (UTC day; revenue is the orders' totals as placed,
 * before refunds), orders per day over the last 14 days, the payment operations needing
 * attention (failed, awaiting the buyer's action, or pending longer than PAYMENT_STALE_MS), the
 * webhook endpoints failing now, and the catalog imports running in this process.
 */
import { currencyExponent } from '../kernel/money/currency-exponents.js';
import type { OrderStore } from '../orders/order-store.js';
import type { PaymentOperationStore } from '../payments/operations/payment-operation-store.js';

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

/**
 * The figures of the orders' and the payments' own stores: no SQL of its own (each table has one
 * owner), only the day boundaries and the major units the console shows.
 */
export class MerchantOverview {
  constructor(
    private readonly orders: Pick<OrderStore, 'totalsSince' | 'ordersPerDaySince'>,
    private readonly payments: Pick<PaymentOperationStore, 'needingAttention'>,
  ) {}

  async activity(merchantId: string, now = new Date()): Promise<OrderActivity> {
    const today = startOfUtcDay(now);
    const first = new Date(today.getTime() - (CHART_DAYS - 1) * 86_400_000);
    const stale = new Date(now.getTime() - PAYMENT_STALE_MS);
    const [totals, days, payments] = await Promise.all([
      this.orders.totalsSince(merchantId, today),
      this.orders.ordersPerDaySince(merchantId, first),
      this.payments.needingAttention(merchantId, stale, ATTENTION_SHOWN),
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
        count: payments.count,
        items: payments.items.map((p) => ({ id: p.id, orderId: p.order_id, kind: p.kind, state: p.state, provider: p.provider, amount: major(p.amount, p.currency), currency: p.currency, lastError: p.last_error, createdAt: p.created_at })),
      },
    };
  }
}
