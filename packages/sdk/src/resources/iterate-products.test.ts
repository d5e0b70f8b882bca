import { describe, expect, it } from 'vitest';
import type { Product, ProductSearchResponse } from '../generated/types.gen.js';
import { product } from '../testing/fixtures.js';
import { iterateProducts } from './iterate-products.js';
import type { ProductSearchParams } from './product-search-params.js';

/** A catalog of `total` products served page by page, recording the queries. */
function catalog(total: number, ids: (page: number, size: number) => string[] = (page, size) => range((page - 1) * size, Math.min(page * size, total))) {
  const queries: ProductSearchParams[] = [];
  const search = async (query: ProductSearchParams): Promise<ProductSearchResponse> => {
    queries.push(query);
    const items = ids(query.page!, query.page_size!).map((id) => product({ id }));
    return { items, page: query.page!, page_size: query.page_size!, total, version: '2026-11-01', generated_at: '2026-11-22T10:00:00Z' };
  };
  return { search, queries };
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => `p${from + i}`);

async function collect(iterable: AsyncIterable<Product>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of iterable) ids.push(item.id);
  return ids;
}

describe('iterateProducts', () => {
  it('walks every page, 100 a page by default, and stops at total', async () => {
    const { search, queries } = catalog(250);
    expect(await collect(iterateProducts(search, { q: 'chair' }))).toEqual(range(0, 250));
    expect(queries).toEqual([
      { q: 'chair', page: 1, page_size: 100 },
      { q: 'chair', page: 2, page_size: 100 },
      { q: 'chair', page: 3, page_size: 100 },
    ]);
  });

  it('stops after `limit` products, without asking for more pages', async () => {
    const { search, queries } = catalog(10_000);
    expect(await collect(iterateProducts(search, { page_size: 20 }, { limit: 45 }))).toEqual(range(0, 45));
    expect(queries.map((q) => q.page)).toEqual([1, 2, 3]);
  });

  it('caps at 1000 products by default', async () => {
    const { search } = catalog(5_000);
    expect(await collect(iterateProducts(search, {}))).toHaveLength(1000);
  });

  it('walks everything with limit Infinity', async () => {
    const { search } = catalog(1_234);
    expect(await collect(iterateProducts(search, {}, { limit: Infinity }))).toHaveLength(1_234);
  });

  it('asks for nothing with limit 0', async () => {
    const { search, queries } = catalog(10);
    expect(await collect(iterateProducts(search, {}, { limit: 0 }))).toEqual([]);
    expect(queries).toEqual([]);
  });

  it('starts at the given page', async () => {
    const { search } = catalog(30);
    expect(await collect(iterateProducts(search, { page: 2, page_size: 10 }))).toEqual(range(10, 30));
  });

  it('stops on a short page even if total says more (the catalog shrank)', async () => {
    const { search, queries } = catalog(100, (page) => (page === 1 ? range(0, 10) : range(10, 13)));
    expect(await collect(iterateProducts(search, { page_size: 10 }))).toEqual(range(0, 13));
    expect(queries).toHaveLength(2);
  });

  it('skips a product that a later page shows again', async () => {
    const { search } = catalog(4, (page) => (page === 1 ? ['a', 'b'] : ['b', 'c']));
    expect(await collect(iterateProducts(search, { page_size: 2 }))).toEqual(['a', 'b', 'c']);
  });

  it('passes the request options to every page', async () => {
    const seen: unknown[] = [];
    const search = async (query: ProductSearchParams, options: unknown): Promise<ProductSearchResponse> => {
      seen.push(options);
      return { items: [], page: query.page!, page_size: query.page_size!, total: 0, version: 'v', generated_at: 'now' };
    };
    await collect(iterateProducts(search, {}, { limit: 5, timeout: 1234 }));
    expect(seen).toEqual([{ timeout: 1234 }]);
  });

  it.each([[-1], [Number.NaN], ['10']])('refuses limit %o', async (limit) => {
    const { search } = catalog(10);
    await expect(collect(iterateProducts(search, {}, { limit: limit as number }))).rejects.toThrow(TypeError);
  });
});
