/**
 * UCP's search filters (types/search_filters.json, price_filter.json) as our catalog filter.
 *
 * - `categories`: OR over the values; each matches as our `category` filter does (a case-insensitive
 *   part of the product's category path, which products show as their one `merchant` category).
 *   At most 10 values.
 * - `price`: minor units of `context.currency`. Applied when that currency is one the merchant prices
 *   in (or, without `context.currency`, when the merchant prices in exactly one); otherwise ignored
 *   with a warning, as price_filter.json allows (we do not convert currencies). On search it bounds
 *   the product's base price (our filter's rule); on lookup and get_product it bounds each variant.
 * - Any other filter (search_filters.json allows custom ones) is not one we support: ignored, with a
 *   warning naming it, so the platform knows its results were not narrowed by it.
 * A malformed filter (min above max, too many categories) is a 400 `invalid_request`.
 */
import { currencyExponent } from '../../kernel/money/currency-exponents.js';
import type { ProductFilter } from '../../search/filter.js';
import { UcpError } from '../ucp-error.js';
import type { UcpMessage, UcpPrice } from './ucp-product.js';

export const MAX_CATEGORIES = 10;

export interface UcpSearchFilters {
  categories?: string[];
  price?: { min?: number; max?: number };
  [custom: string]: unknown;
}

export interface ResolvedFilters {
  /** OR: a product matches when its category matches any (none: every category). */
  categories: string[];
  /** Bounds in major units of `currency`, for our filter (search). */
  price: Pick<ProductFilter, 'minPrice' | 'maxPrice'>;
  /** The same bounds in minor units, for variants (lookup, get_product); undefined: no price bound. */
  priceMinor?: { currency: string; min?: number; max?: number };
  messages: UcpMessage[];
}

const KNOWN = new Set(['categories', 'price']);

export function resolveFilters(filters: UcpSearchFilters | undefined, contextCurrency: string | undefined, merchantCurrencies: ReadonlySet<string>): ResolvedFilters {
  const messages: UcpMessage[] = [];
  const categories = [...new Set((filters?.categories ?? []).map((value) => value.trim()).filter(Boolean))];
  if (categories.length > MAX_CATEGORIES) {
    throw new UcpError('invalid_request', `filters.categories holds ${categories.length} values; at most ${MAX_CATEGORIES} are accepted`, 400);
  }
  if (categories.some((value) => value.includes('\u0000'))) throw new UcpError('invalid_request', 'filters.categories must not contain the NUL character', 400);
  for (const name of Object.keys(filters ?? {}).filter((key) => !KNOWN.has(key))) {
    messages.push({ type: 'warning', code: 'filter_unsupported', path: `$.filters.${name}`, content: `The filter ${JSON.stringify(name)} is not supported here and was ignored; supported filters: categories, price` });
  }
  const bounds = filters?.price;
  if (!bounds || (bounds.min === undefined && bounds.max === undefined)) return { categories, price: {}, messages };
  if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) {
    throw new UcpError('invalid_request', `filters.price.min (${bounds.min}) is greater than filters.price.max (${bounds.max})`, 400);
  }
  const currency = priceCurrency(contextCurrency, merchantCurrencies);
  if (!currency) {
    const why = contextCurrency
      ? `the catalog is not priced in ${contextCurrency.toUpperCase()} (it is priced in ${[...merchantCurrencies].sort().join(', ') || 'no currency yet'})`
      : 'context.currency is absent and the catalog is priced in several currencies';
    messages.push({ type: 'warning', code: 'filter_unsupported', path: '$.filters.price', content: `The price filter was ignored: ${why}` });
    return { categories, price: {}, messages };
  }
  // Minor → major by the exponent: a correctly rounded division, equal to the stored major price it names.
  const scale = 10 ** currencyExponent(currency);
  return {
    categories,
    price: { ...(bounds.min !== undefined ? { minPrice: bounds.min / scale } : {}), ...(bounds.max !== undefined ? { maxPrice: bounds.max / scale } : {}) },
    priceMinor: { currency, ...(bounds.min !== undefined ? { min: bounds.min } : {}), ...(bounds.max !== undefined ? { max: bounds.max } : {}) },
    messages,
  };
}

/** The currency price bounds are in: context.currency when the merchant prices in it, else the merchant's only currency. */
function priceCurrency(contextCurrency: string | undefined, merchantCurrencies: ReadonlySet<string>): string | undefined {
  const upper = new Map([...merchantCurrencies].map((currency) => [currency.toUpperCase(), currency]));
  if (contextCurrency !== undefined) return upper.has(contextCurrency.toUpperCase()) ? contextCurrency.toUpperCase() : undefined;
  return upper.size === 1 ? [...upper.keys()][0] : undefined;
}

/** Whether a price lies within the bounds (a price in another currency never does). */
export function priceAllowed(price: UcpPrice, bounds: ResolvedFilters['priceMinor']): boolean {
  if (!bounds) return true;
  if (price.currency !== bounds.currency) return false;
  return (bounds.min === undefined || price.amount >= bounds.min) && (bounds.max === undefined || price.amount <= bounds.max);
}

/** Whether a product's category matches one of the categories (as our filter matches one). */
export function categoryAllowed(category: string, categories: readonly string[]): boolean {
  if (categories.length === 0) return true;
  const folded = category.toLowerCase();
  return categories.some((value) => folded.includes(value.toLowerCase()));
}
