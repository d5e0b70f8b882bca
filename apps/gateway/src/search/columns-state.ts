/** What the catalog's columns are made of and what they are, as plain values (catalog-columns.ts). */
import type { SearchDocument } from './search-document.js';

/** The fields columns are made of (a Product has them too). */
export type ColumnFields = Pick<SearchDocument, 'id' | 'title' | 'category' | 'vendor' | 'tags' | 'price'>;

/** True when a text holds a character at or above U+D800 (code-point order then needs the slow compare). */
export function isWide(text: string): boolean {
  return /[\uD800-\uFFFF]/.test(text);
}

/** Everything the columns are, as arrays: what a persisted catalog snapshot holds of them (catalog/read-model/catalog-snapshots.ts). */
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
