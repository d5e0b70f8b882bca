import { describe, expect, it } from 'vitest';
import { CONTRACT_DIMENSIONS, searchEngineContract } from '../search-engine.contract.js';
import type { SearchDocument } from '../search-engine.js';
import { compareCodePoints } from '../code-point-order.js';
import { EmbeddedSearchEngine } from './embedded-engine.js';

searchEngineContract('embedded', async () => new EmbeddedSearchEngine({ dimensions: CONTRACT_DIMENSIONS }));

const plain = (id: string, title: string, extra: Partial<SearchDocument> = {}): SearchDocument => ({
  merchantId: 'm',
  id,
  title,
  description: '',
  vendor: '',
  category: '',
  tags: [],
  attributes: {},
  price: 1,
  ...extra,
});

describe('embedded engine', () => {
  it('applies a merchant\'s writes one after another, none lost, even when they are not awaited in turn', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: CONTRACT_DIMENSIONS });
    await engine.index([plain('a', 'oak lamp'), plain('b', 'oak chair')]);
    // Each write yields between building its snapshot's parts and swapping the index in: they must still queue.
    const load = engine.load('m', { sharedColumns: false });
    load.add([plain('a', 'oak lamp'), plain('b', 'oak chair'), plain('c', 'oak table')]);
    await Promise.all([load.finish(), engine.index([plain('d', 'oak desk')]), engine.remove('m', ['b']), engine.index([plain('e', 'oak bed')])]);
    const result = await engine.search({ merchantId: 'm', text: 'oak', filters: {}, offset: 0, limit: 10 });
    expect(result.hits.map((h) => h.id).sort()).toEqual(['a', 'c', 'd', 'e']);
    expect(engine.count('m')).toBe(4);
  });

  it('breaks equal scores by title, then id, in code-point order', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: CONTRACT_DIMENSIONS });
    await engine.index([plain('b', 'lamp Z'), plain('a', 'lamp Z'), plain('c', 'lamp Y'), plain('d', 'lamp É')]);
    const result = await engine.search({ merchantId: 'm', text: 'lamp', filters: {}, offset: 0, limit: 10 });
    expect(result.hits.map((h) => h.id)).toEqual(['c', 'a', 'b', 'd']);
  });

  it('weights a title match above a description match', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: CONTRACT_DIMENSIONS });
    await engine.index([plain('desc', 'Storage unit', { description: 'fits a lamp and books' }), plain('title', 'Floor lamp')]);
    const result = await engine.search({ merchantId: 'm', text: 'lamp', filters: {}, offset: 0, limit: 10 });
    expect(result.hits.map((h) => h.id)).toEqual(['title', 'desc']);
  });

  it('matches stems and ignores stop words', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: CONTRACT_DIMENSIONS });
    await engine.index([plain('1', 'Folding chairs'), plain('2', 'The table')]);
    expect((await engine.search({ merchantId: 'm', text: 'chair', filters: {}, offset: 0, limit: 10 })).hits.map((h) => h.id)).toEqual(['1']);
    expect((await engine.search({ merchantId: 'm', text: 'the', filters: {}, offset: 0, limit: 10 })).total).toBe(0);
  });

  it('answers from one snapshot, the same answer to the same query, until a change replaces the snapshot', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: CONTRACT_DIMENSIONS });
    await engine.index([plain('1', 'Desk lamp'), plain('2', 'Floor lamp')]);
    const query = { merchantId: 'm', text: 'lamp', filters: {}, offset: 0, limit: 10 };
    const snapshot = engine.snapshot('m');
    const first = await engine.search(query);
    expect(await engine.search({ ...query })).toEqual(first);
    expect(engine.snapshot('m')).toBe(snapshot);
    expect((await engine.search({ ...query, limit: 1 })).hits).toHaveLength(1);
    expect(await engine.search({ ...query, filters: { maxPrice: 0 } })).toMatchObject({ total: 0 });
    await engine.index([plain('3', 'Table lamp')]);
    expect(engine.snapshot('m')).not.toBe(snapshot);
    const after = await engine.search(query);
    expect(after.total).toBe(3);
    await engine.remove('m', ['3']);
    expect((await engine.search(query)).hits.map((h) => h.id)).toEqual(first.hits.map((h) => h.id));
  });

  it('answers a query of 83 words as it answers its first 10 searched words: the words past them are ignored', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: CONTRACT_DIMENSIONS });
    await engine.index([plain('oak', 'Oak chair'), plain('pine', 'Pine table'), plain('birch', 'Birch stool')]);
    const words = Array.from({ length: 83 }, (_, i) => (i === 2 ? 'oak' : i === 10 ? 'pine' : i === 60 ? 'birch' : `zq${i}`));
    const search = (text: string) => engine.search({ merchantId: 'm', text, filters: {}, offset: 0, limit: 10 });
    const first = await search(words.slice(0, 10).join(' '));
    expect(first.hits.map((h) => h.id)).toEqual(['oak']);
    expect(await search(words.join(' '))).toEqual(first);
  });

  it('finds a product by a word of 500 letters or CJK characters: read up to 64 in the product as in the query', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: CONTRACT_DIMENSIONS });
    await engine.index([plain('cjk', '椅'.repeat(500)), plain('long', `${'x'.repeat(499)}y`)]);
    const ids = async (text: string) => (await engine.search({ merchantId: 'm', text, filters: {}, offset: 0, limit: 10 })).hits.map((h) => h.id);
    expect(await ids('椅'.repeat(500))).toEqual(['cjk']);
    expect(await ids('椅'.repeat(64))).toEqual(['cjk']);
    expect(await ids('x'.repeat(500))).toEqual(['long']);
  });

  it('compares strings by code point', () => {
    expect(compareCodePoints('\u{1F600}', '\uFFFD')).toBeGreaterThan(0);
    expect(compareCodePoints('B', 'a')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
  });
});
