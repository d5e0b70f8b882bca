import { describe, expect, it } from 'vitest';
import { CatalogColumns, type ColumnFields } from './catalog-columns.js';

const row = (id: string, title: string, category: string, vendor: string, price: number, tags: string[] = []): ColumnFields => ({ id, title, category, vendor, price, tags });

const rows = [
  row('b', 'Oak chair', 'Chairs', 'Acme', 120, ['Wood']),
  row('a', 'Oak chair', 'chairs', 'ACME', 80),
  row('e', '😀 lamp', 'Lighting', 'Lumo', 20, ['wood', 'WOOD']),
  row('c', '\uFFFD mug', 'Kitchen', 'Acme', 9.5),
];

describe('CatalogColumns', () => {
  const columns = new CatalogColumns(rows);

  it('orders rows by title then id in code points (U+1F600 after U+FFFD), each row knowing its place', () => {
    expect(Array.from(columns.byTitle, (r) => rows[r]!.id)).toEqual(['a', 'b', 'c', 'e']);
    expect(Array.from(columns.rank)).toEqual([1, 0, 3, 2]);
  });

  it('numbers categories and vendors case-insensitively, named as first seen (what facets show)', () => {
    expect(columns.categoryNames).toEqual(['Chairs', 'Lighting', 'Kitchen']);
    expect(Array.from(columns.categoryOf)).toEqual([0, 0, 1, 2]);
    expect(columns.vendorNames).toEqual(['Acme', 'Lumo']);
    expect(columns.facets(['category', 'brand'], columns.byTitle, columns.size)).toEqual({
      category: [{ value: 'Chairs', count: 2 }, { value: 'Kitchen', count: 1 }, { value: 'Lighting', count: 1 }],
      brand: [{ value: 'Acme', count: 3 }, { value: 'Lumo', count: 1 }],
    });
  });

  it('masks nothing without a filter, and lists a filter\'s rows in title order (a tag counted once per row)', () => {
    expect(columns.mask({})).toBeUndefined();
    expect(columns.matching({})).toBe(columns.byTitle);
    expect(Array.from(columns.matching({ tag: 'WOOD' }), (r) => rows[r]!.id)).toEqual(['b', 'e']);
    expect(Array.from(columns.mask({ category: 'CHAIR', minPrice: 100 })!)).toEqual([1, 0, 0, 0]);
  });
});
