import type { Command } from 'commander';
import type { OrderChange } from '../../orders/order-service.js';
import { out } from '../output.js';
import { choice } from '../parse.js';
import { withDatabase } from '../with-database.js';

const CHANGES: readonly OrderChange[] = ['fulfilled', 'canceled', 'refunded'];

export function ordersCommand(program: Command): void {
  const orders = program.command('orders').description('record what happened to orders after checkout');
  orders
    .command('update')
    .description('mark an order fulfilled, canceled or refunded; its order.* event goes to every endpoint (ACP endpoints: order_update)')
    .requiredOption('--merchant <id>', 'merchant id')
    .requiredOption('--order <id>', 'order id (ord_…)')
    .requiredOption('--status <status>', `new status: ${CHANGES.join(', ')}`, choice('--status', CHANGES))
    .action(async (options: { merchant: string; order: string; status: OrderChange }) => {
      await withDatabase((_db, services) => services.orders.changeStatus(options.merchant, options.order, options.status));
      out(`order ${options.order}: ${options.status}`);
    });
}
