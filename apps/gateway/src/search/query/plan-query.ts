/**
 * What a search runs with once the query is understood: the words left to search, the
 * filters with the price bounds said in words added (explicit `min_price`/`max_price` always
 * win: a bound from the words is dropped when the explicit one is set or when it would
 * contradict it), and the price preference.
 */
import type { PricePreference, SearchFilters } from '../search-engine.js';
import { boundQuery } from './bound-query.js';
import { understandQuery } from './understand-query.js';

export interface QueryPlan {
  /** The words to search: what understanding left, bounded (its first MAX_QUERY_WORDS searched words, see bound-query.ts). */
  text: string;
  filters: SearchFilters;
  pricePreference?: PricePreference | undefined;
  /** The bounds taken from the query's words that were applied. */
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
}

export function planQuery(q: string, filters: SearchFilters): QueryPlan {
  const understood = understandQuery(q);
  const explicitMin = filters.minPrice;
  const explicitMax = filters.maxPrice;
  let minPrice = explicitMin === undefined ? understood.minPrice : undefined;
  let maxPrice = explicitMax === undefined ? understood.maxPrice : undefined;
  if (minPrice !== undefined && explicitMax !== undefined && minPrice > explicitMax) minPrice = undefined;
  if (maxPrice !== undefined && explicitMin !== undefined && maxPrice < explicitMin) maxPrice = undefined;
  return {
    text: boundQuery(understood.text),
    filters: { ...filters, minPrice: explicitMin ?? minPrice, maxPrice: explicitMax ?? maxPrice },
    pricePreference: understood.pricePreference,
    minPrice,
    maxPrice,
  };
}
