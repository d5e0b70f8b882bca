/**
 * A merchant's products as columns: what filters, facets and the title order need, one typed
 * array or list per field, a row per product. Built once from an immutable list of products;
 * both the catalog read model (listings) and the embedded search index (masks, facets, the
 * ranking's tie-break) read their filters through here, so a filter means one thing (filter.ts).
 * The columns also give back each row's fields (`fields`), so that the columns after a change are
 * made from the columns before it and the changed products alone: nobody keeps the products as
 * objects for that (at a million products, they were most of the memory).
 */
import { countFacets, type FacetColumns } from './embedded/facet-counter.js';
import { allowsEverything, categoryMatches, compareTitleOrder, foldCase, priceBounds, priceWithin, type ProductFilter } from './filter.js';
import type { FacetName, SearchFacets } from './facets.js';
import { numbering } from './column-numbering.js';
import { isWide, type ColumnFields, type ColumnsState } from './columns-state.js';
import { patchedColumns } from './column-patch.js';

export class CatalogColumns implements FacetColumns {
  readonly size: number;
  readonly ids: readonly string[];
  readonly prices: Float64Array;
  /** Each row's category, numbered: a category filter tests each distinct category once, not once per row. */
  readonly categoryOf: Int32Array;
  /** The categories as first seen (what facets show), by number… */
  readonly categoryNames: readonly string[];
  /** …and folded (what filters test). */
  private readonly categoryKeys: readonly string[];
  readonly vendorOf: Int32Array;
  readonly vendorNames: readonly string[];
  /** Rows by folded tag. */
  private readonly tags: Map<string, Int32Array> = new Map();
  private readonly titles: readonly string[];
  /** Row r's folded tags: tagNames[rowTags[tagStarts[r]…tagStarts[r + 1] − 1]]. */
  private readonly tagStarts: Int32Array;
  private readonly rowTags: Int32Array;
  private readonly tagNames: readonly string[];
  /** Each row's place in title-then-id order. */
  readonly rank: Int32Array;
  /** The rows in title-then-id order. */
  readonly byTitle: Int32Array;

  constructor(rows: readonly ColumnFields[], state?: ColumnsState, tags?: Map<string, Int32Array>) {
    if (state) {
      // Made again as they were (CatalogColumns.restore), or patched (with the rows by tag made there).
      ({ ids: this.ids, titles: this.titles, prices: this.prices, categoryOf: this.categoryOf, categoryNames: this.categoryNames } = state);
      ({ vendorOf: this.vendorOf, vendorNames: this.vendorNames, tagStarts: this.tagStarts, rowTags: this.rowTags, tagNames: this.tagNames } = state);
      ({ rank: this.rank, byTitle: this.byTitle } = state);
      this.size = state.ids.length;
      this.categoryKeys = state.categoryNames.map(foldCase);
      if (tags) {
        this.tags = tags;
        return;
      }
      const lists = state.tagNames.map(() => [] as number[]);
      for (let row = 0; row < this.size; row++) for (let k = this.tagStarts[row]!; k < this.tagStarts[row + 1]!; k++) lists[this.rowTags[k]!]!.push(row);
      lists.forEach((list, number) => this.tags.set(state.tagNames[number]!, Int32Array.from(list)));
      return;
    }
    const n = rows.length;
    this.size = n;
    this.ids = rows.map((row) => row.id);
    this.titles = rows.map((row) => row.title);
    this.prices = Float64Array.from(rows, (row) => row.price);
    const categories = numbering(rows, (row) => row.category);
    this.categoryOf = categories.of;
    this.categoryNames = categories.names;
    this.categoryKeys = categories.keys;
    const vendors = numbering(rows, (row) => row.vendor);
    this.vendorOf = vendors.of;
    this.vendorNames = vendors.names;
    const tagLists = new Map<string, number[]>();
    const tagNumbers = new Map<string, number>();
    const rowTags: number[] = [];
    this.tagStarts = new Int32Array(n + 1);
    rows.forEach((row, i) => {
      for (const tag of new Set(row.tags.map(foldCase))) {
        const list = tagLists.get(tag);
        if (list) list.push(i);
        else tagLists.set(tag, [i]);
        let number = tagNumbers.get(tag);
        if (number === undefined) tagNumbers.set(tag, (number = tagNumbers.size));
        rowTags.push(number);
      }
      this.tagStarts[i + 1] = rowTags.length;
    });
    for (const [tag, list] of tagLists) this.tags.set(tag, Int32Array.from(list));
    this.rowTags = Int32Array.from(rowTags);
    this.tagNames = [...tagNumbers.keys()];
    // Whether a row's title or id needs the code-point compare, found once per row rather than once per comparison.
    const wide = Uint8Array.from(rows, (row) => (isWide(row.title) || isWide(row.id) ? 1 : 0));
    this.byTitle = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => {
      const x = rows[a]!;
      const y = rows[b]!;
      if (wide[a] || wide[b]) return compareTitleOrder(x, y);
      // Below U+D800, UTF-16 order is code-point order: the plain compare is the same and faster.
      if (x.title !== y.title) return x.title < y.title ? -1 : 1;
      return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
    });
    this.rank = new Int32Array(n);
    this.byTitle.forEach((row, place) => (this.rank[row] = place));
  }

  /** `before` with the fields of some rows changed (column-patch.ts). */
  static patched(before: CatalogColumns, changes: ReadonlyMap<number, ColumnFields>): CatalogColumns {
    const { state, byTag } = patchedColumns(before.state(), before.rowsByTag, changes);
    return new CatalogColumns([], state, byTag);
  }

  /** The columns as they were when `state` was taken of them. */
  static restore(state: ColumnsState): CatalogColumns {
    return new CatalogColumns([], state);
  }

  state(): ColumnsState {
    const { ids, titles, prices, categoryOf, categoryNames, vendorOf, vendorNames, tagStarts, rowTags, tagNames, rank, byTitle } = this;
    return { ids, titles, prices, categoryOf, categoryNames, vendorOf, vendorNames, tagStarts, rowTags, tagNames, rank, byTitle };
  }

  /**
   * Row r's fields as the columns hold them: filters and order mean the same with them as with the
   * product's own (the category and vendor as first seen in the catalog, the tags folded).
   */
  fields(row: number): ColumnFields {
    const tags: string[] = [];
    for (let k = this.tagStarts[row]!; k < this.tagStarts[row + 1]!; k++) tags.push(this.tagNames[this.rowTags[k]!]!);
    return {
      id: this.ids[row]!,
      title: this.titles[row]!,
      category: this.categoryNames[this.categoryOf[row]!]!,
      vendor: this.vendorNames[this.vendorOf[row]!]!,
      price: this.prices[row]!,
      tags,
    };
  }

  /** The rows of each folded tag (for patched). */
  get rowsByTag(): ReadonlyMap<string, Int32Array> {
    return this.tags;
  }

  /** The rows the filter allows (1) and not (0), or undefined when it allows every row. */
  mask(filter: ProductFilter): Uint8Array | undefined {
    if (allowsEverything(filter)) return undefined;
    const n = this.size;
    const mask = new Uint8Array(n);
    if (filter.tag) {
      for (const i of this.tags.get(foldCase(filter.tag)) ?? []) mask[i] = 1;
    } else mask.fill(1);
    if (filter.category) {
      const needle = foldCase(filter.category);
      const ok = Uint8Array.from(this.categoryKeys, (category) => (categoryMatches(category, needle) ? 1 : 0));
      for (let i = 0; i < n; i++) if (mask[i] && !ok[this.categoryOf[i]!]) mask[i] = 0;
    }
    if (filter.minPrice !== undefined || filter.maxPrice !== undefined) {
      const bounds = priceBounds(filter);
      for (let i = 0; i < n; i++) if (mask[i] && !priceWithin(this.prices[i]!, bounds)) mask[i] = 0;
    }
    return mask;
  }

  /** The rows the filter allows, in title-then-id order. */
  matching(filter: ProductFilter): Int32Array {
    const mask = this.mask(filter);
    if (!mask) return this.byTitle;
    let count = 0;
    for (let i = 0; i < this.size; i++) count += mask[i]!;
    const out = new Int32Array(count);
    let k = 0;
    for (const row of this.byTitle) if (mask[row]) out[k++] = row;
    return out;
  }

  /** The named facets counted over `count` rows of `rows`. */
  facets(names: readonly FacetName[], rows: Int32Array, count: number): SearchFacets {
    return countFacets(names, this, rows, count);
  }
}
