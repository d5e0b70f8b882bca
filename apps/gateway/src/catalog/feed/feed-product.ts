/**
 * A catalog product as ACP 2026-04-17's feed `Product` (`schema.feed.json`,
 * `rfc.product_feeds.md`): the product groups its variants; each variant is what an agent
 * passes to checkout, so `Variant.id` is our SKU (a product without variants is one
 * variant whose id is the product id — checkout buys it as itself). Prices in integer
 * minor units with the upper-case ISO 4217 code.
 *
 *   availability   quantity > 5              → { available: true,  status: in_stock }
 *                  1–5                       → { available: true,  status: limited_stock }
 *                  ≤ 0, policy continue      → { available: true,  status: backorder }
 *                  ≤ 0, policy deny          → { available: false, status: out_of_stock }
 *   media          the product's images in position order (type image, alt_text); only absolute http(s) URLs
 *   categories     our category path, taxonomy `merchant`
 *   variant_options the variant's attributes (name/value), sorted by name
 *   seller         the merchant's name
 *   url            only with a storefront base (STOREFRONT_URL or --base-url):
 *                  <base>/products/<id> and <base>/products/<id>?variant=<sku>
 */
import { toMinor } from '../../kernel/money/money.js';
import type { StorefrontUrls } from '../../storefront/storefront-urls.js';
import { LOW_STOCK_THRESHOLD } from '../inventory.js';
import type { ProductRecord } from '../product-record.js';

export interface FeedPrice { amount: number; currency: string }
export interface FeedAvailability { available: boolean; status: string }
export interface FeedMedia { type: 'image'; url: string; alt_text?: string }
export interface FeedVariant {
  id: string;
  title: string;
  url?: string;
  price: FeedPrice;
  availability: FeedAvailability;
  categories?: { value: string; taxonomy: string }[];
  variant_options?: { name: string; value: string }[];
  seller?: { name: string };
}
export interface FeedProduct {
  id: string;
  title: string;
  description?: { plain: string };
  url?: string;
  media?: FeedMedia[];
  variants: FeedVariant[];
}

export interface FeedContext {
  sellerName: string;
  urls?: StorefrontUrls | undefined;
}

export function feedAvailability(quantity: number, policy: 'deny' | 'continue'): FeedAvailability {
  if (quantity > LOW_STOCK_THRESHOLD) return { available: true, status: 'in_stock' };
  if (quantity > 0) return { available: true, status: 'limited_stock' };
  return policy === 'continue' ? { available: true, status: 'backorder' } : { available: false, status: 'out_of_stock' };
}

const price = (major: number, currency: string): FeedPrice => ({ amount: Number(toMinor(major, currency)), currency: currency.toUpperCase() });

function isWebUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function variantTitle(product: string, variant: string): string {
  const trimmed = variant.trim();
  if (!trimmed || trimmed === product || trimmed.startsWith(`${product} `)) return trimmed || product;
  return `${product} - ${trimmed}`;
}

export function toFeedProduct(row: ProductRecord, context: FeedContext): FeedProduct {
  const { urls, sellerName } = context;
  const categories = row.category.trim() ? [{ value: row.category, taxonomy: 'merchant' }] : undefined;
  const seller = sellerName ? { name: sellerName } : undefined;
  const common = { ...(categories ? { categories } : {}), ...(seller ? { seller } : {}) };
  const variants: FeedVariant[] = row.variants.length
    ? [...row.variants].sort((a, b) => a.position - b.position).map((variant) => {
        const options = Object.entries(variant.attributes as Record<string, unknown>)
          .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
          .map(([name, value]) => ({ name, value: String(value) }))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return {
          id: variant.sku,
          title: variantTitle(row.title, variant.title),
          ...(urls ? { url: urls.variant(row.id, variant.sku) } : {}),
          price: price(variant.price, variant.currency),
          availability: feedAvailability(variant.quantity, variant.policy),
          ...common,
          ...(options.length ? { variant_options: options } : {}),
        };
      })
    : [{
        id: row.id,
        title: row.title,
        ...(urls ? { url: urls.product(row.id) } : {}),
        price: price(row.price, row.currency),
        availability: feedAvailability(row.quantity, row.policy),
        ...common,
      }];
  const media: FeedMedia[] = [...row.images]
    .sort((a, b) => a.position - b.position)
    .filter((image) => isWebUrl(image.url))
    .map((image) => ({ type: 'image', url: image.url, ...(image.altText ? { alt_text: image.altText } : {}) }));
  return {
    id: row.id,
    title: row.title,
    ...(row.description.trim() ? { description: { plain: row.description } } : {}),
    ...(urls ? { url: urls.product(row.id) } : {}),
    ...(media.length ? { media } : {}),
    variants,
  };
}

/**
 * What a product deleted from the catalog is sent as, once: its last pushed form with every
 * variant unavailable and `discontinued` (the Feed API's PATCH cannot delete; rfc.product_feeds.md §3.4).
 */
export function discontinued(last: FeedProduct): FeedProduct {
  return { ...last, variants: last.variants.map((variant) => ({ ...variant, availability: { available: false, status: 'discontinued' } })) };
}
