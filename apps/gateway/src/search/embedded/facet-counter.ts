/**
 * Facet counts over a whole match set, as Meilisearch's facetDistribution: the number of
 * matches per category and per brand (vendor), the most frequent first (at most 100 values),
 * and the matches' price range with counts in fixed, human price bands.
 */
import type { FacetName, FacetValue, PriceBucket, SearchFacets } from '../facets.js';

/** Band edges; a band is [edge, next edge), the last one is open. The same for every catalog, so a band is a stable filter. */
export const PRICE_EDGES = [0, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000];
const MAX_VALUES = 100;

export interface FacetColumns {
  categoryOf: Int32Array;
  categoryNames: readonly string[];
  vendorOf: Int32Array;
  vendorNames: readonly string[];
  prices: Float64Array;
}

function distribution(of: Int32Array, names: readonly string[], docs: Int32Array, count: number): FacetValue[] {
  const counts = new Int32Array(names.length);
  for (let c = 0; c < count; c++) counts[of[docs[c]!]!]!++;
  const out: FacetValue[] = [];
  for (let v = 0; v < names.length; v++) if (counts[v]! > 0 && names[v] !== '') out.push({ value: names[v]!, count: counts[v]! });
  out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return out.slice(0, MAX_VALUES);
}

export function priceBand(price: number): number {
  let band = 0;
  while (band + 1 < PRICE_EDGES.length && price >= PRICE_EDGES[band + 1]!) band++;
  return band;
}

export function countFacets(names: readonly FacetName[], columns: FacetColumns, docs: Int32Array, count: number): SearchFacets {
  const facets: SearchFacets = {};
  if (names.includes('category')) facets.category = distribution(columns.categoryOf, columns.categoryNames, docs, count);
  if (names.includes('brand')) facets.brand = distribution(columns.vendorOf, columns.vendorNames, docs, count);
  if (names.includes('price')) {
    const bands = new Int32Array(PRICE_EDGES.length);
    let min = Infinity;
    let max = -Infinity;
    for (let c = 0; c < count; c++) {
      const price = columns.prices[docs[c]!]!;
      if (price < min) min = price;
      if (price > max) max = price;
      bands[priceBand(price)]!++;
    }
    const buckets: PriceBucket[] = [];
    bands.forEach((n, b) => {
      if (n > 0) buckets.push(b + 1 < PRICE_EDGES.length ? { from: PRICE_EDGES[b]!, to: PRICE_EDGES[b + 1]!, count: n } : { from: PRICE_EDGES[b]!, count: n });
    });
    facets.price = count === 0 ? { min: 0, max: 0, buckets } : { min, max, buckets };
  }
  return facets;
}
