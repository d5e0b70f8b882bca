import { describe, expect, it } from 'vitest';
import { CatalogColumns } from './catalog-columns.js';
import type { ColumnFields } from './columns-state.js';

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

describe('CatalogColumns.patched', () => {
  const fields = (i: number, extra: Partial<ColumnFields> = {}): ColumnFields => ({
    id: `p${String(i).padStart(3, '0')}`,
    title: ['Oak chair', 'Pine table', 'Birch stool', 'Émail lamp', '\u{1F600} mug'][i % 5]!,
    category: ['Chairs', 'Tables', 'Lighting'][i % 3]!,
    vendor: i % 2 ? 'Acme' : 'Nordic',
    tags: i % 4 ? ['wood'] : ['wood', 'sale'],
    price: 10 + (i % 7),
    ...extra,
  });
  /** Everything a reader sees of the columns: rows in order, their fields and places, filters, facets. */
  const seen = (columns: CatalogColumns) => {
    const all = Int32Array.from({ length: columns.size }, (_, i) => i);
    return {
      byTitle: Array.from(columns.byTitle, (row) => columns.ids[row]),
      rank: Array.from(columns.rank),
      fields: Array.from({ length: columns.size }, (_, row) => columns.fields(row)),
      filters: [{ category: 'chairs' }, { category: 'garden' }, { tag: 'SALE' }, { tag: 'new' }, { minPrice: 12, maxPrice: 14 }, { category: 'lighting', tag: 'wood', maxPrice: 13 }].map((filter) =>
        Array.from(columns.matching(filter), (row) => columns.ids[row]),
      ),
      facets: columns.facets(['category', 'brand', 'price'], all, all.length),
    };
  };

  it('reads as the columns made whole of the same fields', () => {
    const rows = Array.from({ length: 40 }, (_, i) => fields(i));
    const before = new CatalogColumns(rows);
    const changes = new Map<number, ColumnFields>([
      [3, fields(3, { title: 'Aardvark rug' })], // to the front of the title order
      [7, fields(7, { title: 'Zebra rug', price: 99 })], // to the back
      [12, fields(12, { category: 'Garden', vendor: 'acme' })], // a new category; a known vendor in another case
      [20, fields(20, { tags: ['New', 'wood'] })], // a new tag, one taken away
      [21, fields(21, { title: 'Oak chair' })], // a title equal to others': placed by id
    ]);
    const after = rows.map((row, i) => changes.get(i) ?? row);
    const patched = CatalogColumns.patched(before, changes);
    const whole = new CatalogColumns(after);
    expect(seen(patched)).toEqual(seen(whole));
    expect(seen(before)).toEqual(seen(new CatalogColumns(rows))); // the columns before are as they were
    // A patched snapshot's state restores to the same columns.
    expect(seen(CatalogColumns.restore(patched.state()))).toEqual(seen(whole));
  });

  it('refuses a change that names another product than the row holds', () => {
    const before = new CatalogColumns([fields(0), fields(1)]);
    expect(() => CatalogColumns.patched(before, new Map([[1, fields(0)]]))).toThrow(/row 1/);
  });
});
