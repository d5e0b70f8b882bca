/**
 * Our catalog product (the contract's Product: prices in major units, variants by SKU, attributes)
 * as UCP 2026-04-08's Product and Variant.
 *
 * Ids: a UCP product id is our product id; a UCP variant id is the variant's SKU — what
 * `CheckoutService.itemsByIds` resolves first, so a variant id from the catalog is a valid
 * `line_items[].item.id` in UCP checkout and cart. A product without variants is sold as itself:
 * it shows one variant whose id is the product id (which checkout resolves to the product itself).
 *
 * Prices: integer minor units (types/amount.json), converted exactly (checkout's toMinor: the
 * price's shortest decimal, rounded half up at the currency's exponent); currencies upper-case.
 * Availability: in stock while units remain; `backorder` (still available) when none remain and the
 * policy sells beyond stock; else `out_of_stock`. Options: the variants' attributes, by name in order
 * of first appearance.
 */
import type { Inventory, Product, Variant } from '../../contract/types.js';
import { toMinor } from '../../kernel/money/money.js';
import type { StorefrontUrls } from '../../storefront/storefront-urls.js';
import type { UcpPrice, UcpProduct, UcpProductOption, UcpSelectedOption, UcpVariant } from './ucp-product.js';

export function ucpPrice(major: number, currency: string): UcpPrice {
  return { amount: Number(toMinor(major, currency)), currency: currency.toUpperCase() };
}

export function ucpAvailability(inventory: Inventory): UcpVariant['availability'] {
  if (inventory.quantity > 0) return { available: true, status: 'in_stock' };
  return inventory.policy === 'continue' ? { available: true, status: 'backorder' } : { available: false, status: 'out_of_stock' };
}

/** What a product sells: its variants, or itself (a variant-shaped view of the product) when it has none. */
export function sellableVariants(product: Product): Variant[] {
  if (product.variants.length > 0) return product.variants;
  return [{ sku: product.id, title: product.title, price: product.price, currency: product.currency, attributes: {}, inventory: product.availability }];
}

export function optionsOf(variant: Variant): UcpSelectedOption[] {
  return Object.entries(variant.attributes).map(([name, label]) => ({ name, label }));
}

/** The product's option axes and their values, in order of first appearance across its variants. */
export function productOptions(product: Product): UcpProductOption[] {
  const axes = new Map<string, Set<string>>();
  for (const variant of product.variants) {
    for (const [name, label] of Object.entries(variant.attributes)) {
      const values = axes.get(name) ?? new Set<string>();
      values.add(label);
      axes.set(name, values);
    }
  }
  return [...axes].map(([name, values]) => ({ name, values: [...values].map((label) => ({ label })) }));
}

export function toUcpVariant(product: Product, variant: Variant, urls?: StorefrontUrls): UcpVariant {
  const options = optionsOf(variant);
  const itself = product.variants.length === 0;
  return {
    id: variant.sku,
    sku: variant.sku,
    title: variant.title,
    description: { plain: itself ? product.description : variant.title },
    ...(urls ? { url: itself ? urls.product(product.id) : urls.variant(product.id, variant.sku) } : {}),
    price: ucpPrice(variant.price, variant.currency),
    availability: ucpAvailability(variant.inventory),
    ...(options.length ? { options } : {}),
  };
}

export interface ProductView {
  /** The variants to show, in order (the first is featured); default: every sellable variant. */
  variants?: readonly Variant[];
  /** The merchant's storefront, for `url`s (none without one). */
  urls?: StorefrontUrls | undefined;
}

export function toUcpProduct(product: Product, view: ProductView = {}): UcpProduct {
  const all = sellableVariants(product);
  const prices = all.map((variant) => ucpPrice(variant.price, variant.currency));
  // The range is over the variants of the product's own currency (a product is priced in one).
  const own = prices.filter((price) => price.currency === product.currency.toUpperCase());
  const ranged = own.length ? own : prices;
  const min = ranged.reduce((a, b) => (b.amount < a.amount ? b : a));
  const max = ranged.reduce((a, b) => (b.amount > a.amount ? b : a));
  const images = [...product.images].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const options = productOptions(product);
  return {
    id: product.id,
    title: product.title,
    description: { plain: product.description },
    ...(view.urls ? { url: view.urls.product(product.id) } : {}),
    ...(product.category ? { categories: [{ value: product.category, taxonomy: 'merchant' }] } : {}),
    price_range: { min, max },
    ...(images.length ? { media: images.map((image) => ({ type: 'image' as const, url: image.url, ...(image.alt_text ? { alt_text: image.alt_text } : {}) })) } : {}),
    ...(options.length ? { options } : {}),
    variants: (view.variants ?? all).map((variant) => toUcpVariant(product, variant, view.urls)),
    ...(product.tags.length ? { tags: [...product.tags] } : {}),
    ...(product.vendor || Object.keys(product.attributes).length ? { metadata: { ...(product.vendor ? { vendor: product.vendor } : {}), ...(Object.keys(product.attributes).length ? { attributes: product.attributes } : {}) } } : {}),
  };
}
