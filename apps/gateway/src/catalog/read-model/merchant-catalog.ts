/**
 * One merchant's products in memory, as the contract shows them: by id, and in title-then-id
 * order (code points, like the database's `COLLATE "C"`) for filtered listings. Filters
 * mean what the database's do: category a case-insensitive substring, tag a case-insensitive
 * equality, prices inclusive. The title order is rebuilt lazily, only after a change that
 * adds, removes or renames a product (a stock change replaces the product in place).
 */
import type { Product } from '../../contract-types.js';
import { compareCodePoints } from '../../search/embedded/code-point-order.js';
import type { ProductFilter } from '../catalog-store.js';

/** Matches remembered over all filters (references to entries: 8 bytes each). */
const MAX_REMEMBERED = 200_000;

interface Entry {
  /** Replaced in place by a change that keeps the fields below, the title and the price (see upsert). */
  product: Product;
  /** The lower-cased category's number (see `categories`), and the lower-cased tags, for the filters. */
  category: number;
  tags: readonly string[];
}

export class MerchantCatalog {
  private readonly entries = new Map<string, Entry>();
  private sorted: Entry[] | undefined;
  /** Distinct lower-cased categories, numbered: a category filter tests each once, not once per product. */
  private readonly categories = new Map<string, number>();
  /** The categories a filter's text matches, by that text (cleared when a category is added). */
  private readonly matching = new Map<string, Uint8Array>();
  /** Every match of a filter, in order, by filter (see `filter`); emptied by any change. */
  private readonly matches = new Map<string, Entry[]>();
  private remembered = 0;

  constructor(products: Iterable<Product> = []) {
    for (const product of products) this.entries.set(product.id, this.entry(product));
  }

  private entry(product: Product): Entry {
    const category = product.category.toLowerCase();
    let number = this.categories.get(category);
    if (number === undefined) {
      this.categories.set(category, (number = this.categories.size));
      this.matching.clear();
    }
    return { product, category: number, tags: product.tags.map((tag) => tag.toLowerCase()) };
  }

  /** Which category numbers contain `needle` (lower-cased). */
  private categoriesMatching(needle: string): Uint8Array {
    let mask = this.matching.get(needle);
    if (!mask) {
      mask = new Uint8Array(this.categories.size);
      for (const [category, number] of this.categories) mask[number] = category.includes(needle) ? 1 : 0;
      if (this.matching.size >= 1_000) this.matching.clear();
      this.matching.set(needle, mask);
    }
    return mask;
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): Product | undefined {
    return this.entries.get(id)?.product;
  }

  /**
   * Adds or replaces products (by id). A product whose title, category, tags and price stay
   * the same (a stock change) is replaced in place: its place in the title order and in every
   * remembered filter's matches stays right, so they are kept.
   */
  upsert(products: readonly Product[]): void {
    for (const product of products) {
      const previous = this.entries.get(product.id);
      if (previous && sameFilterFields(previous.product, product)) {
        previous.product = product;
        continue;
      }
      this.forgetMatches();
      this.sorted = undefined;
      this.entries.set(product.id, this.entry(product));
    }
  }

  remove(ids: readonly string[]): void {
    this.forgetMatches();
    for (const id of ids) if (this.entries.delete(id)) this.sorted = undefined;
  }

  private forgetMatches(): void {
    this.matches.clear();
    this.remembered = 0;
  }

  private ordered(): Entry[] {
    return (this.sorted ??= [...this.entries.values()].sort(
      (a, b) => compareCodePoints(a.product.title, b.product.title) || compareCodePoints(a.product.id, b.product.id),
    ));
  }

  /**
   * One page of the products matching the filter, ordered by title then id, and the number of all
   * matches. A filter's matches are remembered until the catalog changes (shoppers page through
   * the same listings), up to MAX_REMEMBERED entries in all, the oldest filters forgotten first.
   */
  filter(filter: ProductFilter, page: { offset: number; limit: number }): { items: Product[]; total: number } {
    const { category, tag, minPrice, maxPrice } = filter;
    let matches: Entry[];
    if (!category && !tag && minPrice === undefined && maxPrice === undefined) matches = this.ordered();
    else {
      const key = `${category ?? ''}\u0000${tag ?? ''}\u0000${minPrice ?? ''}\u0000${maxPrice ?? ''}`;
      const known = this.matches.get(key);
      if (known) matches = known;
      else {
        matches = this.scan(filter);
        this.matches.set(key, matches);
        this.remembered += matches.length;
        for (const [oldest, list] of this.matches) {
          if (this.remembered <= MAX_REMEMBERED || oldest === key) break;
          this.matches.delete(oldest);
          this.remembered -= list.length;
        }
      }
    }
    return { items: matches.slice(page.offset, page.offset + page.limit).map((e) => e.product), total: matches.length };
  }

  private scan(filter: ProductFilter): Entry[] {
    const categories = filter.category ? this.categoriesMatching(filter.category.toLowerCase()) : undefined;
    const tag = filter.tag?.toLowerCase();
    const { minPrice, maxPrice } = filter;
    const matches: Entry[] = [];
    for (const e of this.ordered()) {
      if (categories && categories[e.category] !== 1) continue;
      if (tag && !e.tags.includes(tag)) continue;
      const price = e.product.price;
      if (minPrice !== undefined && !(price >= minPrice)) continue;
      if (maxPrice !== undefined && !(price <= maxPrice)) continue;
      matches.push(e);
    }
    return matches;
  }
}

/** True when a product's order and filter matches cannot have changed: same title, category, tags and price. */
function sameFilterFields(a: Product, b: Product): boolean {
  return a.title === b.title && a.category === b.category && a.price === b.price && a.tags.length === b.tags.length && a.tags.every((tag, i) => tag === b.tags[i]);
}
