/** The facets a search can count over its whole match set: categories, brands and price buckets. */
export type FacetName = 'category' | 'brand' | 'price';

export interface FacetValue {
  value: string;
  count: number;
}

export interface PriceBucket {
  /** Inclusive lower bound. */
  from: number;
  /** Exclusive upper bound; absent for the last, open bucket. */
  to?: number | undefined;
  count: number;
}

export interface SearchFacets {
  category?: FacetValue[];
  brand?: FacetValue[];
  price?: { min: number; max: number; buckets: PriceBucket[] } | undefined;
}
