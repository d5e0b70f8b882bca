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
import type { SearchDocument } from './search-document.js';

/** The fields columns are made of (a Product has them too). */
export type ColumnFields = Pick<SearchDocument, 'id' | 'title' | 'category' | 'vendor' | 'tags' | 'price'>;

/** True when a text holds a character at or above U+D800 (code-point order then needs the slow compare). */
export function isWide(text: string): boolean {
  return /[\uD800-\uFFFF]/.test(text);
}

/** Everything the columns are, as arrays: what a persisted catalog snapshot holds of them (catalog/snapshots). */
export interface ColumnsState {
  ids: readonly string[];
  titles: readonly string[];
  prices: Float64Array;
  categoryOf: Int32Array;
  categoryNames: readonly string[];
  vendorOf: Int32Array;
  vendorNames: readonly string[];
  tagStarts: Int32Array;
  rowTags: Int32Array;
  tagNames: readonly string[];
  rank: Int32Array;
  byTitle: Int32Array;
}

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

  /**
   * `before` with the fields of some rows changed (`changes`: a row's number and its new fields, of
   * the same id), no row added or removed: O(rows) copies of the typed columns and a few binary
   * searches for the changed titles' places, where a whole build sorts every title again. A value
   * new to a column is numbered after the others; a folded value already known keeps the name it
   * was first seen with.
   */
  static patched(before: CatalogColumns, changes: ReadonlyMap<number, ColumnFields>): CatalogColumns {
    const titles = before.titles.slice();
    const prices = before.prices.slice();
    const categories = renumbered(before.categoryOf, before.categoryNames, before.categoryKeys, changes, (fields) => fields.category);
    const vendors = renumbered(before.vendorOf, before.vendorNames, before.vendorNames.map(foldCase), changes, (fields) => fields.vendor);
    for (const [row, fields] of changes) {
      if (fields.id !== before.ids[row]) throw new Error(`row ${row} is ${before.ids[row]}, not ${fields.id}`);
      titles[row] = fields.title;
      prices[row] = fields.price;
    }
    const tags = patchedTags(before, changes);
    // The title order: the rows whose title changed taken out, then each put back at its place.
    const moved = [...changes.keys()].filter((row) => before.titles[row] !== titles[row]);
    let byTitle = before.byTitle;
    if (moved.length > 0) {
      const isMoved = new Uint8Array(before.size);
      for (const row of moved) isMoved[row] = 1;
      const kept = before.byTitle.filter((row) => !isMoved[row]);
      const ids = before.ids;
      const order = (a: number, b: number) => compareTitleOrder({ title: titles[a]!, id: ids[a]! }, { title: titles[b]!, id: ids[b]! });
      moved.sort(order);
      byTitle = new Int32Array(before.size);
      let from = 0;
      let at = 0;
      for (const row of moved) {
        let low = from;
        let high = kept.length;
        while (low < high) {
          const middle = (low + high) >> 1;
          if (order(kept[middle]!, row) < 0) low = middle + 1;
          else high = middle;
        }
        byTitle.set(kept.subarray(from, low), at);
        at += low - from;
        byTitle[at++] = row;
        from = low;
      }
      byTitle.set(kept.subarray(from), at);
    }
    const rank = moved.length > 0 ? new Int32Array(before.size) : before.rank;
    if (moved.length > 0) byTitle.forEach((row, place) => (rank[row] = place));
    const state: ColumnsState = { ids: before.ids, titles, prices, categoryOf: categories.of, categoryNames: categories.names, vendorOf: vendors.of, vendorNames: vendors.names, ...tags.state, rank, byTitle };
    return new CatalogColumns([], state, tags.byTag);
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

/** A column of distinct values (compared folded), numbered in order of first appearance. */
function numbering(rows: readonly ColumnFields[], value: (row: ColumnFields) => string): { of: Int32Array; names: string[]; keys: string[] } {
  const numbers = new Map<string, number>();
  const names: string[] = [];
  const of = new Int32Array(rows.length);
  rows.forEach((row, i) => {
    const shown = value(row);
    const key = foldCase(shown);
    let number = numbers.get(key);
    if (number === undefined) {
      numbers.set(key, (number = numbers.size));
      names.push(shown);
    }
    of[i] = number;
  });
  return { of, names, keys: [...numbers.keys()] };
}

/** A numbered column (see numbering) with the changed rows' values numbered: new ones after the others. */
function renumbered(
  of: Int32Array,
  names: readonly string[],
  keys: readonly string[],
  changes: ReadonlyMap<number, ColumnFields>,
  value: (fields: ColumnFields) => string,
): { of: Int32Array; names: readonly string[] } {
  const out = of.slice();
  let grown: string[] | undefined;
  let numbers: Map<string, number> | undefined;
  for (const [row, fields] of changes) {
    const shown = value(fields);
    const key = foldCase(shown);
    numbers ??= new Map(keys.map((k, number) => [k, number]));
    let number = numbers.get(key);
    if (number === undefined) {
      grown ??= [...names];
      numbers.set(key, (number = grown.length));
      grown.push(shown);
    }
    out[row] = number;
  }
  return { of: out, names: grown ?? names };
}

/** The tag columns with the changed rows' tags (folded): the rows of each tag they had or have listed again. */
function patchedTags(before: CatalogColumns, changes: ReadonlyMap<number, ColumnFields>): { state: Pick<ColumnsState, 'tagStarts' | 'rowTags' | 'tagNames'>; byTag: Map<string, Int32Array> } {
  const state = before.state();
  const rowTagsOf = (row: number) => Array.from(state.rowTags.subarray(state.tagStarts[row]!, state.tagStarts[row + 1]!));
  const tagNames = [...state.tagNames];
  const numbers = new Map(tagNames.map((tag, number) => [tag, number]));
  const fresh = new Map<number, number[]>();
  const touched = new Set<string>();
  for (const [row, fields] of changes) {
    const tags: number[] = [];
    for (const tag of new Set(fields.tags.map(foldCase))) {
      let number = numbers.get(tag);
      if (number === undefined) {
        numbers.set(tag, (number = tagNames.length));
        tagNames.push(tag);
      }
      tags.push(number);
    }
    const old = rowTagsOf(row);
    if (old.length === tags.length && old.every((number, i) => number === tags[i])) continue;
    fresh.set(row, tags);
    for (const number of [...old, ...tags]) touched.add(tagNames[number]!);
  }
  if (fresh.size === 0) return { state: { tagStarts: state.tagStarts, rowTags: state.rowTags, tagNames: state.tagNames }, byTag: new Map(before.rowsByTag) };
  const n = before.size;
  const tagStarts = new Int32Array(n + 1);
  const rowTags: number[] = [];
  for (let row = 0; row < n; row++) {
    const tags = fresh.get(row);
    if (tags) rowTags.push(...tags);
    else for (let k = state.tagStarts[row]!; k < state.tagStarts[row + 1]!; k++) rowTags.push(state.rowTags[k]!);
    tagStarts[row + 1] = rowTags.length;
  }
  const byTag = new Map(before.rowsByTag);
  for (const tag of touched) {
    const number = numbers.get(tag)!;
    const rows: number[] = [];
    const held = before.rowsByTag.get(tag) ?? new Int32Array(0);
    const now = [...fresh].filter(([, tags]) => tags.includes(number)).map(([row]) => row).sort((a, b) => a - b);
    let j = 0;
    for (const row of held) {
      if (fresh.has(row)) continue;
      while (j < now.length && now[j]! < row) rows.push(now[j++]!);
      rows.push(row);
    }
    while (j < now.length) rows.push(now[j++]!);
    if (rows.length > 0) byTag.set(tag, Int32Array.from(rows));
    else byTag.delete(tag);
  }
  return { state: { tagStarts, rowTags: Int32Array.from(rowTags), tagNames }, byTag };
}
