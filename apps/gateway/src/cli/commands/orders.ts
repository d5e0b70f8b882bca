import type { Command } from 'commander';
import type { CreateRefundRequest } from '../../contract/types.js';
import type { OrderChange } from '../../orders/order-service.js';
import { MAX_ORDERS_PAGE } from '../../orders/order-list-params.js';
import type { OrderStatus } from '../../orders/order-record.js';
import { requireMerchants } from '../merchants-exist.js';
import { out, outJson, result, UsageError } from '../output.js';
import { choice, positiveInt } from '../parse.js';
import { table } from '../table.js';
import { withDatabase } from '../with-database.js';

const CHANGES: readonly OrderChange[] = ['fulfilled', 'canceled', 'refunded'];
const REASONS: readonly CreateRefundRequest['reason'][] = ['requested_by_customer', 'damaged', 'not_received', 'duplicate', 'fraudulent', 'canceled', 'other'];

/** `--line 2:1` (line 2, one unit), repeatable. */
function lineUnits(raw: string, previous: { line: number; quantity: number }[] = []) {
  const match = /^(\d{1,3}):(\d{1,3})$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new UsageError(`--line must be <line>:<quantity> with positive integers, like 1:2; got ${JSON.stringify(raw)}`);
  return [...previous, { line: Number(match[1]), quantity: Number(match[2]) }];
}

function amount(raw: string): number {
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(value > 0)) throw new UsageError(`--amount must be a positive amount in major units, like 12.50; got ${JSON.stringify(raw)}`);
  return value;
}

/** Thin clients of the order service's changes, the same methods `POST /orders/{order_id}/…` call. */
export function ordersCommand(program: Command): void {
  const orders = program.command('orders').description('record what happened to orders after checkout');
  orders
    .command('update')
    .description('fulfil every unit left, cancel, or refund the rest of an order; its order.* event goes to every endpoint (ACP endpoints: order_update)')
    .requiredOption('--merchant <id>', 'merchant id')
    .requiredOption('--order <id>', 'order id (ord_…)')
    .requiredOption('--status <status>', `fulfilled (fulfil every unit left), canceled (cancel), refunded (refund the rest): ${CHANGES.join(', ')}`, choice('--status', CHANGES))
    .action(async (options: { merchant: string; order: string; status: OrderChange }) => {
      const order = await withDatabase((_db, services) => services.orders.changeStatus(options.merchant, options.order, options.status));
      result(order, () => out(`order ${order.id}: ${order.status}`));
    });
  orders
    .command('fulfil')
    .description('record a fulfillment (every unit left, or the --line units) with carrier and tracking')
    .requiredOption('--merchant <id>', 'merchant id')
    .requiredOption('--order <id>', 'order id (ord_…)')
    .option('--carrier <name>', 'carrier, e.g. UPS')
    .option('--tracking-number <number>', 'tracking number')
    .option('--tracking-url <url>', 'http(s) tracking URL')
    .option('--line <line:quantity>', 'units of a line (1-based), repeatable; default: every unit left', lineUnits)
    .action(async (options: { merchant: string; order: string; carrier?: string; trackingNumber?: string; trackingUrl?: string; line?: { line: number; quantity: number }[] }) => {
      const order = await withDatabase((_db, services) => services.orders.fulfil(options.merchant, options.order, {
        ...(options.carrier ? { carrier: options.carrier } : {}),
        ...(options.trackingNumber ? { tracking_number: options.trackingNumber } : {}),
        ...(options.trackingUrl ? { tracking_url: options.trackingUrl } : {}),
        ...(options.line ? { lines: options.line } : {}),
      }));
      result(order, () => out(`order ${order.id}: ${order.status} (fulfillment ${order.fulfillments.at(-1)!.id})`));
    });
  orders
    .command('refund')
    .description('pay back (part of) an order through the payment provider')
    .requiredOption('--merchant <id>', 'merchant id')
    .requiredOption('--order <id>', 'order id (ord_…)')
    .requiredOption('--reason <reason>', `one of ${REASONS.join(', ')}`, choice('--reason', REASONS))
    .option('--amount <amount>', 'major units of the order currency; default: everything not yet refunded', amount)
    .option('--note <text>', 'a note kept with the refund')
    .action(async (options: { merchant: string; order: string; reason: CreateRefundRequest['reason']; amount?: number; note?: string }) => {
      const order = await withDatabase((_db, services) => services.orders.refund(options.merchant, options.order, {
        reason: options.reason,
        ...(options.amount !== undefined ? { amount: options.amount } : {}),
        ...(options.note ? { note: options.note } : {}),
      }));
      result(order, () => out(`order ${order.id}: ${order.status}, refunded ${order.refunded_amount} ${order.currency}`));
    });
  orders
    .command('list')
    .description('a merchant\'s orders, newest first (one page; --cursor continues)')
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--status <status>', `only ${STATUSES.join(', ')}`, choice('--status', STATUSES))
    .option('--email <email>', 'only this buyer\'s')
    .option('--limit <n>', `at most n, up to ${MAX_ORDERS_PAGE} (default 20)`, positiveInt('--limit'), 20)
    .option('--cursor <cursor>', 'the next_cursor of the page before')
    .action(async (options: { merchant: string; status?: OrderStatus; email?: string; limit: number; cursor?: string }) => {
      const page = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.orders.list(options.merchant, {
          limit: options.limit,
          ...(options.status ? { status: options.status } : {}),
          ...(options.email ? { email: options.email } : {}),
          ...(options.cursor ? { cursor: options.cursor } : {}),
        });
      });
      result(page, () => {
        if (page.items.length === 0) return out('no orders');
        table(
          ['ID', 'STATUS', 'TOTAL', 'REFUNDED', 'CUSTOMER', 'CREATED'],
          page.items.map((o) => [o.id, o.status, `${o.amounts.total} ${o.currency}`, String(o.refunded_amount), o.customer?.email ?? '-', o.created_at]),
        );
        if (page.next_cursor) out(`more: --cursor ${page.next_cursor}`);
      });
    });
  orders
    .command('show')
    .description('one order as JSON: lines, amounts, customer, fulfillments and refunds')
    .requiredOption('--merchant <id>', 'merchant id')
    .requiredOption('--order <id>', 'order id (ord_…)')
    .action(async (options: { merchant: string; order: string }) => {
      const order = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.orders.get(options.merchant, options.order);
      });
      outJson(order);
    });
}

const STATUSES: readonly OrderStatus[] = ['created', 'partially_fulfilled', 'fulfilled', 'delivered', 'canceled', 'refunded'];
