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

interface Entry {
  product: Product;
  /** Lower-cased category and tags, for the filters. */
  category: string;
  tags: readonly string[];
}

function entry(product: Product): Entry {
  return { product, category: product.category.toLowerCase(), tags: product.tags.map((tag) => tag.toLowerCase()) };
}

export class MerchantCatalog {
  private readonly entries = new Map<string, Entry>();
  private sorted: Entry[] | undefined;

  constructor(products: Iterable<Product> = []) {
    for (const product of products) this.entries.set(product.id, entry(product));
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): Product | undefined {
    return this.entries.get(id)?.product;
  }

  /** Adds or replaces products (by id). */
  upsert(products: readonly Product[]): void {
    for (const product of products) {
      const previous = this.entries.get(product.id);
      if (!previous || previous.product.title !== product.title) this.sorted = undefined;
      const next = entry(product);
      this.entries.set(product.id, next);
      // A stock or price change keeps the order: the sorted list points at the new entry.
      if (this.sorted && previous) {
        const at = this.sorted.indexOf(previous);
        if (at >= 0) this.sorted[at] = next;
        else this.sorted = undefined;
      }
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) if (this.entries.delete(id)) this.sorted = undefined;
  }

  /** One page of the products matching the filter, ordered by title then id, and the number of all matches. */
  filter(filter: ProductFilter, page: { offset: number; limit: number }): { items: Product[]; total: number } {
    const sorted = (this.sorted ??= [...this.entries.values()].sort(
      (a, b) => compareCodePoints(a.product.title, b.product.title) || compareCodePoints(a.product.id, b.product.id),
    ));
    const category = filter.category?.toLowerCase();
    const tag = filter.tag?.toLowerCase();
    const { minPrice, maxPrice } = filter;
    const items: Product[] = [];
    let total = 0;
    const end = page.offset + page.limit;
    for (const e of sorted) {
      if (category && !e.category.includes(category)) continue;
      if (tag && !e.tags.includes(tag)) continue;
      const price = e.product.price;
      if (minPrice !== undefined && !(price >= minPrice)) continue;
      if (maxPrice !== undefined && !(price <= maxPrice)) continue;
      if (total >= page.offset && total < end) items.push(e.product);
      total++;
    }
    return { items, total };
  }
}
