/**
 * A product's stock as one text: its variants' SKUs, quantities and policies in position order (or
 * its own quantity and policy without variants) — from a product as shown (stockKey) and from the
 * stored rows (CatalogStore.stockLists, changedStock) alike. A persisted snapshot's products are checked against
 * the database's stock by these keys, so that only the products whose stock changed since are read
 * and restocked.
 */
import type { Product } from '../../contract/types.js';
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

const ENTRY = '\u0004';
const ID_END = '\u0003';

/**
 * The ids of the products whose stock differs from `keys` (row r: the product `ids[r]`), given the
 * database's stock lists (CatalogStore.stockLists: products by id, variants by product and position,
 * in the order the rows are); undefined when the lists hold other products than `ids`, or in another
 * order. One pass over both texts.
 */
export function changedStock(lists: { products: string; variants: string }, ids: readonly string[], keys: readonly string[]): string[] | undefined {
  const { products, variants } = lists;
  const changed: string[] = [];
  let at = 0;
  let variantAt = 0;
  let row = 0;
  while (at < products.length) {
    const idEnd = products.indexOf(ID_END, at);
    let end = products.indexOf(ENTRY, at);
    if (end < 0) end = products.length;
    if (idEnd < 0 || idEnd > end || row >= ids.length) return undefined;
    const id = ids[row]!;
    if (idEnd - at !== id.length || !products.startsWith(id, at)) return undefined;
    let key = '';
    // This product's variants: the entries of the variants' list that start with its id.
    while (variantAt < variants.length && variants.startsWith(id, variantAt) && variants[variantAt + id.length] === ID_END) {
      let variantEnd = variants.indexOf(ENTRY, variantAt);
      if (variantEnd < 0) variantEnd = variants.length;
      key += `${key ? '\u0002' : ''}${variants.slice(variantAt + id.length + 1, variantEnd)}`;
      variantAt = variantEnd + 1;
    }
    if (!key) key = `\u0001${products.slice(idEnd + 1, end)}`;
    if (key !== keys[row]) changed.push(id);
    row++;
    at = end + 1;
  }
  if (row !== ids.length || variantAt < variants.length) return undefined;
  return changed;
}
