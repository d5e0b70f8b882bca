/** The catalog operations against a real gateway with the seeded demo catalog. */
import { beforeAll, describe, expect, it } from 'vitest';
import { CommerceGateway, type ResponseEvent } from '../src/index.js';
import { gatewayUnderTest } from './support/gateway-under-test.js';

const { url, keys } = gatewayUnderTest();
const events: ResponseEvent[] = [];
const gw = new CommerceGateway({ apiKey: keys.main, baseUrl: url, onResponse: (event) => events.push(event) });

let chairs: number;
beforeAll(async () => {
  chairs = (await gw.products.search({ category: 'chairs', page_size: 1 })).total;
});

describe('products.search (GET /acp/products)', () => {
  it('returns one page with its total, ordered by title then id', async () => {
    const page = await gw.products.search({ category: 'chairs', page_size: 5 });
    expect(page).toMatchObject({ page: 1, page_size: 5, total: chairs, version: '2026-11-01' });
    expect(page.items).toHaveLength(5);
    const titles = page.items.map((p) => p.title);
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(chairs).toBeGreaterThan(50);
  });

  it('ranks by relevance with q, each item with a similarity_score', async () => {
    const page = await gw.products.search({ q: 'comfortable office chair', page_size: 5 });
    expect(page.items.length).toBeGreaterThan(0);
    for (const product of page.items) expect(product.similarity_score).toBeGreaterThanOrEqual(0);
  });
});

describe('products.searchAlias (GET /acp/products/search)', () => {
  it('answers exactly like search', async () => {
    const query = { category: 'chairs', max_price: 100, page: 2, page_size: 3 };
    const [main, alias] = await Promise.all([gw.products.search(query), gw.products.searchAlias(query)]);
    expect(alias.items).toEqual(main.items);
    expect(alias.total).toBe(main.total);
  });
});

describe('products.retrieve (GET /acp/products/{id})', () => {
  it('returns the product itself, with its variants', async () => {
    const [first] = (await gw.products.search({ category: 'chairs', page_size: 1 })).items;
    const product = await gw.products.retrieve(first!.id);
    expect(product).toMatchObject({ id: first!.id, title: first!.title });
    expect(product.variants.length).toBeGreaterThan(0);
    expect(product).not.toHaveProperty('similarity_score');
  });
});

describe('products.iterate', () => {
  it('walks the pages and stops at the cap', async () => {
    events.length = 0;
    const ids: string[] = [];
    for await (const product of gw.products.iterate({ category: 'chairs', page_size: 7 }, { limit: 20 })) ids.push(product.id);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    expect(events.map((e) => e.url.replace(url, ''))).toEqual([
      '/acp/products?category=chairs&page=1&page_size=7',
      '/acp/products?category=chairs&page=2&page_size=7',
      '/acp/products?category=chairs&page=3&page_size=7',
    ]);
  });

  it('yields every match, in the order of the pages, when the cap allows', async () => {
    const query = { category: 'chairs', max_price: 60 };
    const { total } = await gw.products.search({ ...query, page_size: 1 });
    const ids: string[] = [];
    for await (const product of gw.products.iterate({ ...query, page_size: 25 }, { limit: Infinity })) ids.push(product.id);
    expect(ids).toHaveLength(total);
    const firstPage = await gw.products.search({ ...query, page_size: 25 });
    expect(ids.slice(0, 25)).toEqual(firstPage.items.map((p) => p.id));
  });
});
