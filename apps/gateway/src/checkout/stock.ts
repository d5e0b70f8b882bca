/** Stock as checkout takes it at completion and reports what an open cart lacks. */

/** Stock to take: one line (or several lines of the same SKU, summed). */
export interface StockTake {
  productId: string;
  sku: string;
  quantity: number;
}

/** `taken`; `short` of stock under policy `deny` (`available` units left); or `gone` from the catalog. */
export type StockResult = { kind: 'taken' } | { kind: 'short'; available: number } | { kind: 'gone' };

/** Stock short for one SKU of an open cart: the lines it comes from, what they ask, what is left (`null`: gone from the catalog). */
export interface Shortage {
  lines: number[];
  sku: string;
  requested: number;
  available: number | null;
}

/** A SKU's stock as read: its product, units left and inventory policy. */
export interface StockLevel {
  productId: string;
  sku: string;
  quantity: number;
  policy: string;
}

/** The takes the stock read cannot fill: gone from the catalog, or short under policy `deny`. A read, not a reservation. */
export function shortagesOf(takes: readonly (StockTake & { lines: number[] })[], stock: readonly StockLevel[]): Shortage[] {
  const shortages: Shortage[] = [];
  for (const take of takes) {
    const held = stock.find((row) => row.sku === take.sku && row.productId === take.productId);
    if (!held) shortages.push({ lines: take.lines, sku: take.sku, requested: take.quantity, available: null });
    else if (held.policy === 'deny' && held.quantity < take.quantity) {
      shortages.push({ lines: take.lines, sku: take.sku, requested: take.quantity, available: Math.max(0, held.quantity) });
    }
  }
  return shortages;
}
