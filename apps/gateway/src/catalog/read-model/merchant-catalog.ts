/**
 * One merchant's products in memory, as the contract shows them: by id, and as columns
 * (search/catalog-columns.ts) for filtered listings in title-then-id order — the filters mean
 * what the database's do (search/filter.ts) — and for the in-memory search index, which is built
 * on these same columns. The columns are rebuilt lazily, only after a change
 * that adds, removes or alters a filtered field of a product; a stock change replaces the product
 * in its row.
 */
import { LRUCache } from 'lru-cache';
import type { Product } from '../../contract-types.js';
import { CatalogColumns } from '../../search/catalog-columns.js';
import { filterKey, type ProductFilter } from '../../search/filter.js';

/** Matching rows remembered over all filters of one set of columns (4 bytes each). */
const MAX_REMEMBERED_ROWS = 200_000;

interface Listing {
  /** The products by row of `columns`. */
  products: Product[];
  columns: CatalogColumns;
  /** Every match of a filter, as rows in order (shoppers page through the same listings); goes with the columns. */
  matches: LRUCache<string, Int32Array>;
}

export class MerchantCatalog {
  /** Each product and its row in `listing` (undefined until the listing is made again). */
  private readonly entries = new Map<string, { product: Product; row: number }>();
  private listing: Listing | undefined;

  constructor(products: Iterable<Product> = []) {
    for (const product of products) this.entries.set(product.id, { product, row: -1 });
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): Product | undefined {
    return this.entries.get(id)?.product;
  }

  /**
   * Adds or replaces products (by id). A product whose title, category, tags and price stay
   * the same (a stock change) is replaced in its row: the columns and every remembered filter's
   * matches stay right, so they are kept.
   */
  upsert(products: readonly Product[]): void {
    for (const product of products) {
      const previous = this.entries.get(product.id);
      if (previous && sameFilterFields(previous.product, product)) {
        previous.product = product;
        if (this.listing && previous.row >= 0) this.listing.products[previous.row] = product;
        continue;
      }
      this.listing = undefined;
      this.entries.set(product.id, { product, row: -1 });
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) if (this.entries.delete(id)) this.listing = undefined;
  }

  /** The products as columns (filters, facets, title order): shared with the search index (see CatalogReadModel.columnsOf). */
  columns(): CatalogColumns {
    return this.current().columns;
  }

  private current(): Listing {
    if (this.listing) return this.listing;
    const entries = [...this.entries.values()];
    entries.forEach((entry, row) => (entry.row = row));
    const products = entries.map((entry) => entry.product);
    return (this.listing = {
      products,
      columns: new CatalogColumns(products),
      matches: new LRUCache({ maxSize: MAX_REMEMBERED_ROWS, sizeCalculation: (rows) => Math.max(1, rows.length) }),
    });
  }

  /**
   * One page of the products matching the filter, ordered by title then id, and the number of all
   * matches. A filter's matches are remembered until the catalog changes, up to MAX_REMEMBERED_ROWS
   * rows in all, the least recently asked filters forgotten first.
   */
  filter(filter: ProductFilter, page: { offset: number; limit: number }): { items: Product[]; total: number } {
    const { products, columns, matches } = this.current();
    const key = filterKey(filter);
    let rows = matches.get(key);
    if (rows === undefined) {
      rows = columns.matching(filter);
      if (rows !== columns.byTitle) matches.set(key, rows);
    }
    const items = Array.from(rows.subarray(page.offset, page.offset + page.limit), (row) => products[row]!);
    return { items, total: rows.length };
  }
}

/** True when a product's columns cannot have changed: same title, category, vendor, tags and price (its order and filter matches neither). */
function sameFilterFields(a: Product, b: Product): boolean {
  return a.title === b.title && a.category === b.category && a.vendor === b.vendor && a.price === b.price && a.tags.length === b.tags.length && a.tags.every((tag, i) => tag === b.tags[i]);
}
