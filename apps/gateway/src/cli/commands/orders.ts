import type { Command } from 'commander';
import type { CreateRefundRequest } from '../../contract-types.js';
import type { OrderChange } from '../../orders/order-service.js';
import { out, UsageError } from '../output.js';
import { choice } from '../parse.js';
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
      out(`order ${order.id}: ${order.status}`);
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
      out(`order ${order.id}: ${order.status} (fulfillment ${order.fulfillments.at(-1)!.id})`);
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
      out(`order ${order.id}: ${order.status}, refunded ${order.refunded_amount} ${order.currency}`);
    });
}
