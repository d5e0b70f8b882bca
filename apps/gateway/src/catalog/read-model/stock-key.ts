/**
 * A product's stock as one text: its variants' SKUs, quantities and policies (or its own quantity
 * and policy without variants), the same text CatalogStore.stockKeys makes of the stored rows. A
 * persisted snapshot's products are checked against the database's stock by these keys, so that
 * only the products whose stock changed since are read and restocked.
 */
import type { Product } from '../../contract-types.js';

export function stockKey(product: Product): string {
  if (product.variants.length === 0) return `\u0001${product.availability.quantity}\u0001${product.availability.policy}`;
  return product.variants.map((v) => `${v.sku}\u0001${v.inventory.quantity}\u0001${v.inventory.policy}`).join('\u0002');
}
