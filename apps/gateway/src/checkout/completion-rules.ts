/**
 * What `complete` requires before it takes stock: a shipping address when
 * anything ships, and, per SKU, enough stock under the inventory policy.
 */
import type { Address } from '../contract/types.js';
import { REQUIRED_SHIPPING_FIELDS } from './address.js';
import { OutOfStockError, ShippingAddressMissingError } from './checkout-errors.js';
import { shippingNeeds } from './session-needs.js';
import type { StockResult, StockTake } from './stock.js';

export interface StoredLine {
  productId: string;
  variantSku: string;
  quantity: number;
  title: string;
  requiresShipping: boolean;
}

/** Stock to take for one SKU, with the cart lines it comes from (indexes into line_items). */
export interface PlannedTake extends StockTake {
  lines: number[];
  title: string;
}

export function checkShippingAddress(lines: readonly StoredLine[], address: Address | null): void {
  const missing = shippingNeeds(lines, address);
  if (missing.length === 0) return;
  const needed = REQUIRED_SHIPPING_FIELDS.join(', ');
  if (!address) {
    throw new ShippingAddressMissingError(`A shipping address (${needed}) is needed to ship this order; set shipping_address first`, 'shipping_address', missing);
  }
  throw new ShippingAddressMissingError(
    `The shipping address lacks ${missing.join(', ')}; ${needed} are needed to ship this order`,
    `shipping_address.${missing[0]}`,
    missing,
  );
}

/**
 * One take per SKU (lines of the same SKU summed), in a fixed global order (SKU,
 * then product) so that concurrent completions lock stock rows in the same order
 * and can never deadlock one another.
 */
export function planStockTakes(lines: readonly StoredLine[]): PlannedTake[] {
  const takes = new Map<string, PlannedTake>();
  lines.forEach((line, index) => {
    const key = JSON.stringify([line.variantSku, line.productId]);
    const take = takes.get(key);
    if (take) {
      take.quantity += line.quantity;
      take.lines.push(index);
    } else {
      takes.set(key, { productId: line.productId, sku: line.variantSku, quantity: line.quantity, lines: [index], title: line.title });
    }
  });
  return [...takes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, take]) => take);
}

/** The 400 for a take that failed, naming the line, what was asked and what is left. */
export function stockError(take: PlannedTake, result: Exclude<StockResult, { kind: 'taken' }>): OutOfStockError {
  const first = take.lines[0]!;
  const where = take.lines.map((index) => `line_items[${index}]`).join(' + ');
  const what = `${where} (sku ${take.sku}, ${take.title})`;
  if (result.kind === 'gone') {
    return new OutOfStockError(`${what} is no longer in the catalog; replace the cart's items`, `line_items[${first}].variant_sku`, take.sku, take.quantity, null);
  }
  return new OutOfStockError(
    `Not enough stock for ${what}: ${take.quantity} requested, ${result.available} available`,
    `line_items[${first}].quantity`,
    take.sku,
    take.quantity,
    result.available,
  );
}
