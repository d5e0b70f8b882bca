/**
 * Where checkout reads the products a cart names: the catalog read model when it is live
 * (prices and variants as fresh as every catalog read, without a database round trip), else
 * the database. Stock is never decided here: completion locks and checks it in the database.
 */
import type { Product } from '../contract/types.js';
import type { CatalogProduct } from './line-resolver.js';

/** The read model's view of one merchant, or undefined when reads must go to the database. */
export type ProductsInMemory = (merchantId: string) => { get(id: string): Product | undefined } | undefined;

/** The named products from memory (absent ids left out), or undefined when memory may not answer. */
export function productsFromMemory(inMemory: ProductsInMemory | undefined, merchantId: string, ids: readonly string[]): Map<string, CatalogProduct> | undefined {
  const catalog = inMemory?.(merchantId);
  // Text the database cannot hold (NUL) is left to the database, which refuses it as before.
  if (!catalog || ids.some((id) => id.includes('\u0000'))) return undefined;
  const found = new Map<string, CatalogProduct>();
  for (const id of ids) {
    const product = catalog.get(id);
    if (!product) continue;
    found.set(id, {
      id: product.id,
      title: product.title,
      category: product.category ?? null,
      price: product.price,
      currency: product.currency,
      variants: product.variants.map((v) => ({
        sku: v.sku,
        price: v.price,
        currency: v.currency,
        requiresShipping: v.requires_shipping ?? null,
        taxable: v.taxable ?? null,
      })),
    });
  }
  return found;
}
