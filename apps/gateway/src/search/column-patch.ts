import { renumbered } from './column-numbering.js';
import type { ColumnFields, ColumnsState } from './columns-state.js';
import { compareTitleOrder, foldCase } from './filter.js';

/**
 * The columns `before` with the fields of some rows changed (`changes`: a row's number and its new fields, of
 * the same id), no row added or removed: O(rows) copies of the typed columns and a few binary
 * searches for the changed titles' places, where a whole build sorts every title again. A value
 * new to a column is numbered after the others; a folded value already known keeps the name it
 * was first seen with.
 */
export function patchedColumns(
  before: ColumnsState,
  rowsByTag: ReadonlyMap<string, Int32Array>,
  changes: ReadonlyMap<number, ColumnFields>,
): { state: ColumnsState; byTag: Map<string, Int32Array> } {
  const size = before.ids.length;
  const titles = before.titles.slice();
  const prices = before.prices.slice();
  const categories = renumbered(before.categoryOf, before.categoryNames, before.categoryNames.map(foldCase), changes, (fields) => fields.category);
  const vendors = renumbered(before.vendorOf, before.vendorNames, before.vendorNames.map(foldCase), changes, (fields) => fields.vendor);
  for (const [row, fields] of changes) {
    if (fields.id !== before.ids[row]) throw new Error(`row ${row} is ${before.ids[row]}, not ${fields.id}`);
    titles[row] = fields.title;
    prices[row] = fields.price;
  }
  const tags = patchedTags(before, rowsByTag, changes);
  // The title order: the rows whose title changed taken out, then each put back at its place.
  const moved = [...changes.keys()].filter((row) => before.titles[row] !== titles[row]);
  let byTitle = before.byTitle;
  if (moved.length > 0) {
    const isMoved = new Uint8Array(size);
    for (const row of moved) isMoved[row] = 1;
    const kept = before.byTitle.filter((row) => !isMoved[row]);
    const ids = before.ids;
    const order = (a: number, b: number) => compareTitleOrder({ title: titles[a]!, id: ids[a]! }, { title: titles[b]!, id: ids[b]! });
    moved.sort(order);
    byTitle = new Int32Array(size);
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
  const rank = moved.length > 0 ? new Int32Array(size) : before.rank;
  if (moved.length > 0) byTitle.forEach((row, place) => (rank[row] = place));
  const state: ColumnsState = { ids: before.ids, titles, prices, categoryOf: categories.of, categoryNames: categories.names, vendorOf: vendors.of, vendorNames: vendors.names, ...tags.state, rank, byTitle };
  return { state, byTag: tags.byTag };
}

/** The tag columns with the changed rows' tags (folded): the rows of each tag they had or have listed again. */
function patchedTags(
  state: ColumnsState,
  rowsByTag: ReadonlyMap<string, Int32Array>,
  changes: ReadonlyMap<number, ColumnFields>,
): { state: Pick<ColumnsState, 'tagStarts' | 'rowTags' | 'tagNames'>; byTag: Map<string, Int32Array> } {
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
  if (fresh.size === 0) return { state: { tagStarts: state.tagStarts, rowTags: state.rowTags, tagNames: state.tagNames }, byTag: new Map(rowsByTag) };
  const n = state.ids.length;
  const tagStarts = new Int32Array(n + 1);
  const rowTags: number[] = [];
  for (let row = 0; row < n; row++) {
    const tags = fresh.get(row);
    if (tags) rowTags.push(...tags);
    else for (let k = state.tagStarts[row]!; k < state.tagStarts[row + 1]!; k++) rowTags.push(state.rowTags[k]!);
    tagStarts[row + 1] = rowTags.length;
  }
  const byTag = new Map(rowsByTag);
  for (const tag of touched) {
    const number = numbers.get(tag)!;
    const rows: number[] = [];
    const held = rowsByTag.get(tag) ?? new Int32Array(0);
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
