/** The response's `query_understanding`: what the query plan took from `q` and the attribute values the engine recognised. */
import type { ProductSearchResponse } from '../contract/types.js';
import type { QueryPlan } from '../search/query/plan-query.js';
import type { UnderstoodAttribute } from '../search/search-engine.js';

export type QueryUnderstanding = NonNullable<ProductSearchResponse['query_understanding']>;

export function understanding(plan: QueryPlan, attributes: readonly UnderstoodAttribute[] | undefined): QueryUnderstanding {
  return {
    text: plan.text,
    ...(plan.minPrice !== undefined ? { min_price: plan.minPrice } : {}),
    ...(plan.maxPrice !== undefined ? { max_price: plan.maxPrice } : {}),
    ...(plan.pricePreference ? { price_preference: plan.pricePreference } : {}),
    ...(attributes?.length ? { attributes: attributes.map(({ name, value }) => ({ name, value })) } : {}),
  };
}
