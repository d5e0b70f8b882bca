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
