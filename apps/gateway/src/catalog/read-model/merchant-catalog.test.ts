import { describe, expect, it } from 'vitest';
import type { Product } from '../../contract/types.js';
import { MerchantCatalog } from './merchant-catalog.js';

function product(id: string, title: string, category: string, price: number, tags: string[] = []): Product {
  return {
    id, title, category, price, tags,
    description: '', vendor: 'Acme', currency: 'USD', attributes: {}, images: [], variants: [],
    availability: { status: 'in_stock', quantity: 9, policy: 'deny' },
  };
}

const all = [
  product('b', 'Oak chair', 'Furniture > Chairs', 120, ['Wood']),
  product('a', 'Oak chair', 'Furniture > Chairs', 80),
  product('c', 'Ärmchair', 'Furniture > Armchairs', 300),
  product('d', 'Mug', 'Kitchen', 9.5, ['coffee', 'Wood']),
  product('e', '😀 lamp', 'Lighting', 20),
];
const page = { offset: 0, limit: 10 };
const ids = (catalog: MerchantCatalog, filter = {}, p = page) => catalog.filter(filter, p).items.map((item) => item.id);

describe('MerchantCatalog', () => {
  it('lists by title then id, in code-point order like COLLATE "C"', () => {
    expect(ids(new MerchantCatalog(all))).toEqual(['d', 'a', 'b', 'c', 'e']);
  });

  // What each filter means, against the database, the search index and Meilisearch too: test/search-filter.int.test.ts.

  it('pages and counts every match', () => {
    expect(new MerchantCatalog(all).filter({}, { offset: 2, limit: 2 })).toMatchObject({ total: 5, items: [{ id: 'b' }, { id: 'c' }] });
  });

  it('keeps the order through a stock change, re-sorts after a rename, forgets removed products', () => {
    const catalog = new MerchantCatalog(all);
    ids(catalog);
    catalog.upsert([{ ...all[1]!, availability: { status: 'limited', quantity: 1, policy: 'deny' } }]);
    expect(catalog.filter({}, page).items[1]?.availability.quantity).toBe(1);
    catalog.upsert([{ ...all[3]!, title: 'Zebra mug' }, product('f', 'Bench', 'Garden', 50)]);
    expect(ids(catalog)).toEqual(['f', 'a', 'b', 'd', 'c', 'e']);
    expect(ids(catalog, { category: 'garden' })).toEqual(['f']);
    catalog.remove(['a', 'zzz']);
    expect(ids(catalog)).toEqual(['f', 'b', 'd', 'c', 'e']);
    expect(catalog.get('a')).toBeUndefined();
  });

  it('answers a repeated filter as it answered it, until any change', () => {
    const catalog = new MerchantCatalog(all);
    const filter = { category: 'chairs' };
    expect(ids(catalog, filter)).toEqual(['a', 'b', 'c']);
    expect(catalog.filter(filter, { offset: 1, limit: 1 })).toMatchObject({ total: 3, items: [{ id: 'b' }] });
    catalog.upsert([{ ...all[0]!, price: 999 }]);
    expect(catalog.filter({ ...filter, maxPrice: 500 }, page).items.map((p) => p.id)).toEqual(['a', 'c']);
    catalog.upsert([{ ...all[2]!, category: 'Garden' }]);
    expect(ids(catalog, filter)).toEqual(['a', 'b']);
    expect(ids(catalog, { ...filter, maxPrice: 500 })).toEqual(['a']);
    catalog.remove(['a']);
    expect(ids(catalog, filter)).toEqual(['b']);
  });

  it('keeps a remembered filter through a stock change, showing the new stock, and forgets it on a price change', () => {
    const catalog = new MerchantCatalog(all);
    const filter = { category: 'chairs', maxPrice: 200 };
    catalog.filter(filter, page); // a product stays decoded from the second time it is asked for (../doorkeeper.ts)
    const first = catalog.filter(filter, page);
    catalog.upsert([{ ...all[1]!, availability: { status: 'out_of_stock', quantity: 0, policy: 'deny' } }]);
    const again = catalog.filter(filter, page);
    expect(again.items.map((p) => [p.id, p.availability.quantity])).toEqual([['a', 0], ['b', 9]]);
    expect(again.items[1]).toBe(first.items[1]); // the untouched product is the same object
    catalog.upsert([{ ...all[1]!, price: 500 }]);
    expect(ids(catalog, filter)).toEqual(['b']);
  });

  it('keeps a product decoded from the second time it is asked for, not the first', () => {
    const catalog = new MerchantCatalog(all);
    const once = catalog.get('b')!;
    const twice = catalog.get('b')!;
    expect(twice).not.toBe(once);
    expect(twice).toEqual(once);
    expect(catalog.get('b')).toBe(twice);
  });

  it('shows a search its products without keeping them, and names each product’s text until it changes', () => {
    const catalog = new MerchantCatalog(all);
    expect(catalog.shown('b')).not.toBe(catalog.shown('b')); // asked twice by searches: never kept
    expect(catalog.get('b')).not.toBe(catalog.get('b')); // asked twice for itself: kept from the second time
    expect(catalog.shown('b')).toBe(catalog.get('b')); // a kept product is the one a search shows
    expect(catalog.shown('nope')).toBeUndefined();
    const a = all.find((product) => product.id === 'a')!;
    const text = catalog.text('a');
    expect(JSON.parse(text!)).toEqual(a);
    expect(catalog.text('a')).toBe(text);
    catalog.upsert([{ ...a, availability: { status: 'in_stock', quantity: 1, policy: 'deny' } }]);
    expect(catalog.text('a')).not.toBe(text);
    catalog.remove(['a']);
    expect(catalog.text('a')).toBeUndefined();
  });
});
