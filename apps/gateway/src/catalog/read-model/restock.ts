/**
 * A stock change applied to a product held in memory: the product as it was, with the
 * quantities and policies the database holds now (product availability derived from its
 * variants, as product-mapper.ts does). Nothing else of a product changes when stock is taken,
 * so a completion need not read whole products again.
 */
import type { Product } from '../../contract/types.js';
import { inventory, productAvailability, type InventoryPolicy } from '../inventory.js';
import type { MerchantCatalog } from './merchant-catalog.js';

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

/**
 * Restocks the products of `ids` that `merchant` holds with the stock the database holds now
 * (read 1,000 at a time). Answers the ids done; the others (not held, or changed otherwise) are
 * for the caller to read whole.
 */
export async function restockHeld(stockById: (ids: readonly string[]) => Promise<StockRow[]>, merchant: MerchantCatalog, ids: readonly string[]): Promise<string[]> {
  const done: string[] = [];
  for (let i = 0; i < ids.length; i += 1_000) {
    const products: Product[] = [];
    for (const stock of await stockById(ids.slice(i, i + 1_000))) {
      const held = merchant.get(stock.id);
      const product = held && restock(held, stock);
      if (product) products.push(product);
    }
    merchant.upsert(products);
    for (const product of products) done.push(product.id);
  }
  return done;
}
