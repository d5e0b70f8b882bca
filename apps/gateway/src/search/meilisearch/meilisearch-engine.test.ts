/**
 * The Meilisearch adapter's contract tests need a Meilisearch server: they run when
 * MEILISEARCH_URL is set (MEILISEARCH_API_KEY if it needs one) and are skipped otherwise.
 * The document mapping and settings are checked everywhere.
 */
import { describe, expect, it } from 'vitest';
import { CONTRACT_DIMENSIONS, searchEngineContract } from '../search-engine.contract.js';
import { documentUid, embedderSettings, filterExpression, indexSettings, toMeiliProduct } from './meilisearch-documents.js';
import { MeilisearchEngine } from './meilisearch-engine.js';
import { searchParams, searchText } from './meilisearch-query.js';

const url = process.env.MEILISEARCH_URL;

searchEngineContract(
  'meilisearch',
  async () =>
    new MeilisearchEngine({
      url: url!,
      apiKey: process.env.MEILISEARCH_API_KEY,
      indexUid: `contract_${process.pid}_${Date.now()}`,
      embedder: { source: 'userProvided', dimensions: CONTRACT_DIMENSIONS },
      semanticRatio: 0.5,
    }),
  { skip: !url },
);

describe('Meilisearch documents and settings', () => {
  it('makes document ids Meilisearch accepts, distinct per merchant', () => {
    const a = documentUid('shop a', 'sku/1 é');
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(documentUid('shop', 'a')).not.toBe(documentUid('sho', 'pa'));
  });

  it('builds filters: merchant, category substring and tag ignoring case, inclusive prices, quotes escaped', () => {
    expect(filterExpression('m"1', { category: 'Chairs', tag: 'Wood', minPrice: 1.5, maxPrice: 20 })).toBe(
      'merchant_id = "m\\"1" AND category_lc CONTAINS "chairs" AND tags_lc = "wood" AND price >= 1.5 AND price <= 20',
    );
  });

  it('maps a product with lower-cased copies for filtering and its vector', () => {
    const doc = toMeiliProduct(
      { merchantId: 'm', id: 'p', title: 'T', description: 'd', vendor: 'v', category: 'A > B', tags: ['X'], attributes: { link: ['https://x.example/p/oak-chair'] }, price: 3, vector: new Float32Array([0.5, 0.5]) },
      true,
    );
    expect(doc).toMatchObject({ product_id: 'p', category_lc: 'a > b', tags_lc: ['x'], attribute_values: ' p oak chair', _vectors: { default: [0.5, 0.5] } });
  });

  it('makes price, category and tags filterable and configures a user-provided or REST embedder', () => {
    const settings = indexSettings({ source: 'userProvided', dimensions: 100 });
    expect(settings.filterableAttributes).toEqual(expect.arrayContaining(['merchant_id', 'price', 'category_lc', 'tags_lc']));
    expect(settings.embedders).toEqual({ default: { source: 'userProvided', dimensions: 100 } });
    expect(settings.filterableAttributes).toEqual(expect.arrayContaining(['category', 'vendor', 'price_band']));
    expect(settings.typoTolerance).toEqual({ enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnNumbers: true });
    expect(settings.faceting).toMatchObject({ maxValuesPerFacet: 100 });
    const rest = embedderSettings({ source: 'rest', url: 'https://emb.example/v1/embeddings', model: 'm', dimensions: 256 });
    expect(rest?.default).toMatchObject({ source: 'rest', url: 'https://emb.example/v1/embeddings', dimensions: 256, request: { model: 'm', input: ['{{text}}', '{{..}}'] } });
  });
});

describe('Meilisearch search parameters', () => {
  const request = { merchantId: 'm', text: 'oak chair', vector: new Float32Array([0.6, 0.8]), filters: {}, offset: 20, limit: 10 };

  it('matches tightly (the rare words must match), hybrid with the query vector, paged', () => {
    expect(searchParams(request, 0.5)).toEqual({
      filter: 'merchant_id = "m"',
      page: 3,
      hitsPerPage: 10,
      matchingStrategy: 'frequency',
      showRankingScore: true,
      attributesToRetrieve: ['product_id'],
      hybrid: { embedder: 'default', semanticRatio: 0.5 },
      vector: [expect.closeTo(0.6), expect.closeTo(0.8)],
    });
  });

  it('sorts by price for a price preference, by title for a blank text, and asks for facets', () => {
    expect(searchParams({ ...request, pricePreference: 'low' }, 0.5).sort).toEqual(['price:asc']);
    expect(searchParams({ ...request, text: ' ', offset: 5 }, 0)).toMatchObject({ sort: ['title:asc', 'product_id:asc'], offset: 5, limit: 10 });
    expect(searchParams({ ...request, text: ' ' }, 0.5).hybrid).toBeUndefined();
    expect(searchParams({ ...request, facets: ['brand', 'price'] }, 0.5).facets).toEqual(['vendor', 'price_band', 'price']);
  });
});

describe('Meilisearch query text', () => {
  const numbered = (n: number) => Array.from({ length: n }, (_, i) => `word${i + 1}`).join(' ');

  it('sends a short query as typed', () => {
    expect(searchText('Oak chair, under the window')).toBe('Oak chair, under the window');
  });

  it('sends the first 10 searched words of a longer one, as the embedded engine searches them', () => {
    expect(searchText(numbered(83))).toBe(numbered(10));
    expect(searchText(`oak ${'x'.repeat(500)}`)).toBe(`oak ${'x'.repeat(64)}`);
  });

  it('leaves out stop words when there are more than 10 words in all (Meilisearch would count them and drop searched words)', () => {
    expect(searchText('a chair for my reading room with arms and a soft cushion in oak')).toBe('chair reading room arms soft cushion oak');
    expect(searchText('the the the the the the the the the the the the')).toBe('the the the the the the the the the the the the');
  });
});
