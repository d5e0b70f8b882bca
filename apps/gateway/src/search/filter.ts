/**
 * What a catalog filter means, for every reader of the catalog: the database's SQL
 * (catalog-store.ts), an in-memory snapshot's columns (catalog-columns.ts) and the Meilisearch
 * filter (meilisearch-documents.ts). One table (filter.table.test.ts) runs through all three.
 *
 * - category: a case-insensitive substring of the category path;
 * - tag: a case-insensitive equality with one of the tags;
 * - minPrice, maxPrice: inclusive bounds on the base price;
 * - listings come in title-then-id order by code point (the database's `COLLATE "C"`).
 */
import { compareCodePoints } from './code-point-order.js';

export interface ProductFilter {
  /** Case-insensitive substring of the category path. */
  category?: string | undefined;
  /** Case-insensitive equality with one of the tags. */
  tag?: string | undefined;
  /** Inclusive bounds on the base price. */
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
}

/** True when the filter allows every product. */
export function allowsEverything({ category, tag, minPrice, maxPrice }: ProductFilter): boolean {
  return !category && !tag && minPrice === undefined && maxPrice === undefined;
}

/** The form in which categories and tags are compared (both sides lower-cased). */
export function foldCase(text: string): string {
  return text.toLowerCase();
}

/** Whether a category (folded) holds the filter's category text (folded). */
export function categoryMatches(foldedCategory: string, foldedNeedle: string): boolean {
  return foldedCategory.includes(foldedNeedle);
}

/** The filter's price bounds, open ends infinite. */
export function priceBounds({ minPrice, maxPrice }: ProductFilter): { lo: number; hi: number } {
  return { lo: minPrice ?? -Infinity, hi: maxPrice ?? Infinity };
}

/** Whether a price lies within bounds (inclusive). */
export function priceWithin(price: number, { lo, hi }: { lo: number; hi: number }): boolean {
  return price >= lo && price <= hi;
}

/** Listing order: title, then id, by code point. */
export function compareTitleOrder(a: { title: string; id: string }, b: { title: string; id: string }): number {
  return compareCodePoints(a.title, b.title) || compareCodePoints(a.id, b.id);
}

/** A text that names the filter (for remembering its matches). */
export function filterKey({ category, tag, minPrice, maxPrice }: ProductFilter): string {
  return `${category ?? ''}\u0000${tag ?? ''}\u0000${minPrice ?? ''}\u0000${maxPrice ?? ''}`;
}
