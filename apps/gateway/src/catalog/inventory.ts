/** Stock rules shared by the catalog and checkout. */
export type InventoryStatus = 'in_stock' | 'limited' | 'out_of_stock';
export type InventoryPolicy = 'deny' | 'continue';

/** At or below this many units (and above zero) an item is `limited`. */
export const LOW_STOCK_THRESHOLD = 5;

export function inventoryStatus(quantity: number): InventoryStatus {
  if (quantity <= 0) return 'out_of_stock';
  return quantity <= LOW_STOCK_THRESHOLD ? 'limited' : 'in_stock';
}

export interface Inventory {
  status: InventoryStatus;
  quantity: number;
  policy: InventoryPolicy;
}

export function inventory(quantity: number, policy: InventoryPolicy): Inventory {
  return { status: inventoryStatus(quantity), quantity, policy };
}

/**
 * A product's own availability, derived from its variants: quantities summed;
 * `continue` when any variant may be backordered.
 */
export function productAvailability(variants: readonly { quantity: number; policy: InventoryPolicy }[]): Inventory {
  const quantity = variants.reduce((sum, v) => sum + Math.max(0, v.quantity), 0);
  const policy = variants.some((v) => v.policy === 'continue') ? 'continue' : 'deny';
  return inventory(quantity, policy);
}
