/**
 * A stock change applied to a product held in memory: the product as it was, with the
 * quantities and policies the database holds now (product availability derived from its
 * variants, as product-mapper.ts does). Nothing else of a product changes when stock is taken,
 * so a completion need not read whole products again.
 */
import type { Product } from '../../contract-types.js';
import { inventory, productAvailability, type InventoryPolicy } from '../inventory.js';

/** A product's stock as stored: its own, and each variant's in position order. */
export interface StockRow {
  id: string;
  quantity: number;
  policy: InventoryPolicy;
  variants: { sku: string; quantity: number; policy: InventoryPolicy }[];
}

/**
 * The product with `stock` applied; undefined when the stored variants are not the ones held
 * (the product changed otherwise meanwhile: the caller reads it whole).
 */
export function restock(product: Product, stock: StockRow): Product | undefined {
  const held = product.variants;
  if (held.length !== stock.variants.length || held.some((variant, i) => variant.sku !== stock.variants[i]!.sku)) return undefined;
  return {
    ...product,
    availability: stock.variants.length ? productAvailability(stock.variants) : inventory(stock.quantity, stock.policy),
    variants: held.map((variant, i) => ({ ...variant, inventory: inventory(stock.variants[i]!.quantity, stock.variants[i]!.policy) })),
  };
}
