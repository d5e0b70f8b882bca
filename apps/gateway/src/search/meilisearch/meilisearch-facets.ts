/**
 * The gateway's facets in Meilisearch terms: `category` and `brand` (vendor) are its
 * facetDistribution of those fields, `price` is the distribution of each document's price band
 * (the same fixed bands as the embedded engine) with facetStats' min and max.
 */
import { PRICE_EDGES } from '../embedded/facet-counter.js';
import type { FacetName, FacetValue, PriceBucket, SearchFacets } from '../search-engine.js';

const FIELD: Record<FacetName, string> = { category: 'category', brand: 'vendor', price: 'price_band' };

export function meiliFacets(names: readonly FacetName[]): string[] {
  return names.map((name) => FIELD[name]).concat(names.includes('price') ? ['price'] : []);
}

function values(distribution: Record<string, number> | undefined): FacetValue[] {
  return Object.entries(distribution ?? {})
    .filter(([value, count]) => value !== '' && count > 0)
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, 100);
}

export function fromMeiliFacets(
  names: readonly FacetName[],
  distribution: Record<string, Record<string, number>> | undefined,
  stats: Record<string, { min: number; max: number }> | undefined,
): SearchFacets {
  const facets: SearchFacets = {};
  if (names.includes('category')) facets.category = values(distribution?.category);
  if (names.includes('brand')) facets.brand = values(distribution?.vendor);
  if (names.includes('price')) {
    const buckets: PriceBucket[] = Object.entries(distribution?.price_band ?? {})
      .map(([band, count]) => ({ band: Number(band), count }))
      .filter(({ band, count }) => Number.isInteger(band) && band >= 0 && band < PRICE_EDGES.length && count > 0)
      .sort((a, b) => a.band - b.band)
      .map(({ band, count }) => (band + 1 < PRICE_EDGES.length ? { from: PRICE_EDGES[band]!, to: PRICE_EDGES[band + 1]!, count } : { from: PRICE_EDGES[band]!, count }));
    const price = stats?.price;
    facets.price = { min: price?.min ?? 0, max: price?.max ?? 0, buckets };
  }
  return facets;
}
