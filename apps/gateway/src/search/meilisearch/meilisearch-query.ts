/**
 * A SearchRequest as Meilisearch search parameters. Tight matching as the embedded engine's
 * (embedded/ranking.ts: a product must hold the query's rarer words, not one common word):
 * `matchingStrategy: 'frequency'` lets Meilisearch drop the most frequent words of a query
 * that matches too little, never the rare ones. A price preference sorts by price (after its
 * relevance rules); a blank text lists by title, then id.
 *
 * The text sent is the query bounded as the embedded engine bounds it (query/bound-query.ts): its
 * first 10 searched words. Meilisearch reads at most 10 words of a query itself and counts every
 * word, our stop words too (the index has no stop words configured): when the bounded text holds
 * more than 10 words, its stop words are left out, so that the same words are searched by either engine.
 */
import type { SearchParams } from 'meilisearch';
import { boundQuery, MAX_QUERY_WORDS } from '../query/bound-query.js';
import type { SearchRequest } from '../search-engine.js';
import { words } from '../text/analyzer.js';
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

/** The query text Meilisearch is sent (see above). */
export function searchText(text: string): string {
  const bounded = boundQuery(text);
  if (words(bounded).length <= MAX_QUERY_WORDS) return bounded;
  const searched = boundQuery(bounded, { dropStopWords: true });
  return searched.trim() === '' ? bounded : searched;
}
