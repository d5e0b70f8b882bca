import type { Order } from './api';

/**
 * What the order's state forbids, as the gateway's orders service decides it
 * (src/orders/order-progress.ts): for each action the reason it cannot be taken, or undefined
 * when it can. The buttons are disabled with the reason shown; the API refuses the same (405).
 */
export interface BlockedActions {
  fulfil?: string;
  refund?: string;
  cancel?: string;
}

type Units = { lines?: { line: number; quantity: number }[] }[];

const unitsOf = (changes: Units, line: number) =>
  changes.reduce((total, change) => total + (change.lines ?? []).filter((l) => l.line === line).reduce((n, l) => n + l.quantity, 0), 0);

/** Everything paid was paid back (an order of 0 never is). */
const refundedInFull = (order: Order) => order.status === 'refunded' || (order.amounts.total > 0 && order.refunded_amount >= order.amounts.total);

/** Units of line `line` (1-based) still to ship: ordered − fulfilled − refunded; none once canceled or refunded in full. */
export function openUnits(order: Order, line: number): number {
  const item = order.line_items[line - 1];
  if (!item || order.canceled_at || refundedInFull(order)) return 0;
  return Math.max(0, item.quantity - unitsOf(order.fulfillments, line) - unitsOf(order.refunds, line));
}

/** Units still to ship, every line together. */
export function unitsToFulfil(order: Order): number {
  return order.line_items.reduce((left, _item, index) => left + openUnits(order, index + 1), 0);
}

/** Units of a line in its fulfillments, and in its refunds. */
export const fulfilledUnits = (order: Order, line: number) => unitsOf(order.fulfillments, line);
export const refundedUnits = (order: Order, line: number) => unitsOf(order.refunds, line);

/** What is paid and not yet refunded, in major units (the API never refunds more). */
export const refundableAmount = (order: Order) => Math.max(0, Math.round((order.amounts.total - order.refunded_amount) * 1e6) / 1e6);

export function blockedActions(order: Order): BlockedActions {
  const refunded = refundedInFull(order);
  const none = unitsToFulfil(order) === 0;
  return {
    fulfil: order.canceled_at ? 'The order is canceled' : refunded ? 'Everything paid was refunded; nothing is left to ship' : none ? 'No unit is left to ship (each is fulfilled or refunded)' : undefined,
    refund: !(order.amounts.total > 0) ? 'Nothing was paid' : refunded ? 'Everything paid was refunded' : undefined,
    cancel: order.canceled_at ? 'The order is already canceled' : refunded ? 'Everything paid was refunded; nothing is left to cancel' : none ? 'No unit is left to cancel (each is fulfilled or refunded)' : undefined,
  };
}
