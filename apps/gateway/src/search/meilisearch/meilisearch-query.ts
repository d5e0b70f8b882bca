/**
 * A SearchRequest as Meilisearch search parameters. Tight matching as the embedded engine's
 * (merchant-index.ts: a product must hold the query's rarer words, not one common word):
 * `matchingStrategy: 'frequency'` lets Meilisearch drop the most frequent words of a query
 * that matches too little, never the rare ones. A price preference sorts by price (after its
 * relevance rules); a blank text lists by title, then id.
 */
import type { SearchParams } from 'meilisearch';
import type { SearchRequest } from '../search-engine.js';
import { EMBEDDER_NAME, filterExpression } from './meilisearch-documents.js';
import { meiliFacets } from './meilisearch-facets.js';

export function searchParams(request: SearchRequest, semanticRatio: number): SearchParams {
  const { offset, limit, vector } = request;
  const hybrid = vector !== undefined && semanticRatio > 0;
  const blank = request.text.trim() === '';
  const paging = offset % limit === 0 ? { page: offset / limit + 1, hitsPerPage: limit } : { offset, limit };
  const sort = request.pricePreference ? [`price:${request.pricePreference === 'low' ? 'asc' : 'desc'}`] : blank ? ['title:asc', 'product_id:asc'] : undefined;
  const facets = request.facets?.length ? request.facets : undefined;
  return {
    filter: filterExpression(request.merchantId, request.filters),
    ...paging,
    matchingStrategy: 'frequency',
    showRankingScore: true,
    attributesToRetrieve: ['product_id'],
    ...(sort ? { sort } : {}),
    ...(facets ? { facets: meiliFacets(facets) } : {}),
    ...(hybrid && !blank ? { hybrid: { embedder: EMBEDDER_NAME, semanticRatio }, vector: Array.from(vector) } : {}),
  };
}
