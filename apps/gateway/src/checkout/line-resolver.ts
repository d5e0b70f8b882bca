/**
 * Turns the request's items into priced cart lines, by the contract's rules: the
 * product must exist (404), a SKU must be one of its variants (400), the first
 * variant by default (the product itself when it has none), quantity 1–999, at
 * most 100 lines, one currency. Prices come from the catalog, never the client.
 */
import type { LineItemInput } from '../contract/types.js';
import { InvalidRequestError, NotFoundError } from '../kernel/errors.js';
import { toMinor } from '../kernel/money/money.js';
import type { PricingLine } from './pricing/pricing.js';

export const MAX_LINES = 100;
export const MAX_QUANTITY = 999;

/** What checkout reads of a catalog variant. */
export interface CatalogVariant {
  sku: string;
  price: number;
  currency: string;
  requiresShipping: boolean | null;
  taxable: boolean | null;
}

/** What checkout reads of a catalog product; `variants` in catalog order. */
export interface CatalogProduct {
  id: string;
  title: string;
  category?: string | null;
  price: number;
  currency: string;
  variants: CatalogVariant[];
}

/** A cart line, priced in minor units of the session's currency. */
export interface CartLine extends PricingLine {
  productId: string;
  variantSku: string;
  title: string;
  category: string | null;
}

export interface ResolvedCart {
  currency: string;
  lines: CartLine[];
}

/** The largest amount of minor units that can still be shown exactly as a JSON number. */
const MAX_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The unit price of a line in minor units; 400 naming the line when the stored price cannot be
 * charged (not a finite non-negative number, or one unit past 2^53 − 1 minor units). The contract
 * bounds prices at import, so only a catalog written around it holds such a price.
 */
function unitAmount(price: number, currency: string, index: number, sku: string): bigint {
  let minor: bigint | undefined;
  try {
    minor = toMinor(price, currency);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  if (minor === undefined || minor > MAX_MINOR) {
    throw new InvalidRequestError(`The price of items[${index}] (${JSON.stringify(sku)}, ${price} ${currency}) cannot be charged: it is out of the range of prices`, `items[${index}]`);
  }
  return minor;
}

/** The thing bought: a variant, or the product itself when it has no variants. */
function pickVariant(product: CatalogProduct, sku: string | undefined, index: number): CatalogVariant {
  const itself: CatalogVariant = { sku: product.id, price: product.price, currency: product.currency, requiresShipping: null, taxable: null };
  if (sku === undefined) return product.variants[0] ?? itself;
  const variant = product.variants.find((v) => v.sku === sku) ?? (product.variants.length === 0 && sku === product.id ? itself : undefined);
  if (!variant) {
    throw new InvalidRequestError(`Variant ${JSON.stringify(sku)} does not belong to product ${JSON.stringify(product.id)}`, `items[${index}].variant_sku`);
  }
  return variant;
}

export function checkItemCount(items: readonly unknown[]): void {
  if (items.length === 0 || items.length > MAX_LINES) {
    throw new InvalidRequestError(`items must hold 1 to ${MAX_LINES} lines, got ${items.length}`, 'items');
  }
}

export function resolveLines(items: readonly LineItemInput[], catalog: ReadonlyMap<string, CatalogProduct>): ResolvedCart {
  checkItemCount(items);
  let currency: string | undefined;
  const lines = items.map((item, index): CartLine => {
    const quantity = item.quantity ?? 1;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
      throw new InvalidRequestError(`items[${index}].quantity must be a whole number from 1 to ${MAX_QUANTITY}`, `items[${index}].quantity`);
    }
    const product = catalog.get(item.product_id);
    if (!product) throw new NotFoundError(`No product ${JSON.stringify(item.product_id)}`, `items[${index}].product_id`);
    const variant = pickVariant(product, item.variant_sku, index);
    currency ??= variant.currency;
    if (variant.currency !== currency) {
      throw new InvalidRequestError(
        `items[${index}] is priced in ${variant.currency} but items[0] in ${currency}: a session holds one currency`,
        `items[${index}]`,
      );
    }
    return {
      productId: product.id,
      variantSku: variant.sku,
      title: product.title,
      category: product.category ?? null,
      quantity,
      unitAmount: unitAmount(variant.price, currency, index, variant.sku),
      requiresShipping: variant.requiresShipping ?? true,
      taxable: variant.taxable ?? true,
    };
  });
  return { currency: currency!, lines };
}
