/**
 * A product's stock as one text: its variants' SKUs, quantities and policies in position order (or
 * its own quantity and policy without variants) — from a product as shown (stockKey) and from the
 * stored rows (CatalogStore.stockKeys) alike. A persisted snapshot's products are checked against
 * the database's stock by these keys, so that only the products whose stock changed since are read
 * and restocked.
 */
import type { Product } from '../../contract-types.js';
import type { InventoryPolicy } from '../inventory.js';

export function stockKey(product: Product): string {
  if (product.variants.length === 0) return productStockKey(product.availability.quantity, product.availability.policy);
  return variantsStockKey(product.variants.map((v) => ({ sku: v.sku, quantity: v.inventory.quantity, policy: v.inventory.policy })));
}

/** A product without variants: its own stock. */
export function productStockKey(quantity: number, policy: InventoryPolicy): string {
  return `\u0001${quantity}\u0001${policy}`;
}

/** A product's variants, in position order. */
export function variantsStockKey(variants: readonly { sku: string; quantity: number; policy: InventoryPolicy }[]): string {
  return variants.map((v) => `${v.sku}\u0001${v.quantity}\u0001${v.policy}`).join('\u0002');
}
