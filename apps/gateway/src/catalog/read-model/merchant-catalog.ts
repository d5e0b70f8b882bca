/**
 * One merchant's products in memory, as the contract shows them: by id, and as columns
 * (search/catalog-columns.ts) for filtered listings in title-then-id order — the filters mean
 * what the database's do (search/filter.ts) — and for the in-memory search index, which is built
 * on these same columns.
 *
 * A product is held as its JSON text, not as objects: at 200,000 products the objects (a product,
 * its variants, images, attributes and their strings) were most of a replica's memory, the text is
 * a third of it, and the text is what GET and listings send anyway. A product asked for is decoded
 * once and kept while it is asked for (DECODED, the most recently asked), so the same product is
 * the same object, whose text the HTTP side never makes again (shown-items.ts).
 *
 * The columns are made again lazily, only after a change that adds, removes or alters a filtered
 * field of a product, from the columns before the change and the changed products (nothing is
 * decoded for that): patched when every product keeps its row (CatalogColumns.patched), made whole
 * when products were added or removed; a stock change replaces the product's text in its row.
 */
import { LRUCache } from 'lru-cache';
import type { Product } from '../../contract/types.js';
import { CatalogColumns } from '../../search/catalog-columns.js';
import type { ColumnFields, ColumnsState } from '../../search/columns-state.js';
import { filterKey, foldCase, type ProductFilter } from '../../search/filter.js';
import { Doorkeeper } from '../doorkeeper.js';
import { decodedProduct } from '../shown-items.js';

/** Matching rows remembered over all filters of one set of columns (4 bytes each). */
const MAX_REMEMBERED_ROWS = 200_000;
/** Products kept decoded, the most recently asked for. */
const DECODED = 2_000;

/** A merchant's catalog as arrays (a persisted snapshot's part, catalog/read-model/catalog-snapshots.ts): row r is the product columns.ids[r], its text texts[r]. */
export interface CatalogState {
  columns: ColumnsState;
  texts: readonly string[];
}

interface Listing {
  columns: CatalogColumns;
  /** Every match of a filter, as rows in order (shoppers page through the same listings); goes with the columns. */
  matches: LRUCache<string, Int32Array>;
}

interface Entry {
  /** The product's JSON text. */
  text: string;
  /** Its row in the columns (of `listing`, or of `before` while they are to be made again); −1: added since. */
  row: number;
}

export class MerchantCatalog {
  private readonly entries = new Map<string, Entry>();
  private listing: Listing | undefined;
  /** While the columns are to be made again: the columns before the change… */
  private before: CatalogColumns | undefined;
  /** …and the fields of the products changed since them… */
  private readonly changed = new Map<string, ColumnFields>();
  /** …and whether products were added or removed since (else the columns are patched, not made again). */
  private reshaped = false;
  private readonly decoded = new LRUCache<string, Product>({ max: DECODED });
  /** A product stays decoded from the second time it is asked for (../doorkeeper.ts). */
  private readonly admission = new Doorkeeper(4 * DECODED);

  constructor(products: readonly Product[] = []) {
    if (products.length === 0) return;
    this.listing = listingOf(new CatalogColumns(products.map((product, row) => this.held(product, row))));
  }

  /**
   * A catalog loaded batch by batch (products of distinct ids): only the products' texts and the
   * few fields the columns are made of are kept meanwhile, not the products.
   */
  static loader(): { add(products: readonly Product[]): void; build(): MerchantCatalog } {
    const catalog = new MerchantCatalog();
    const fields: ColumnFields[] = [];
    return {
      add: (products) => {
        for (const product of products) fields.push(catalog.held(product, fields.length));
      },
      build: () => {
        if (fields.length) catalog.listing = listingOf(new CatalogColumns(fields));
        return catalog;
      },
    };
  }

  /** The catalog as it was when `state` was taken of it. */
  static restore(state: CatalogState): MerchantCatalog {
    const catalog = new MerchantCatalog();
    const { ids } = state.columns;
    for (let row = 0; row < ids.length; row++) catalog.entries.set(ids[row]!, { text: state.texts[row]!, row });
    if (ids.length) catalog.listing = listingOf(CatalogColumns.restore(state.columns));
    return catalog;
  }

  state(): CatalogState {
    const { columns } = this.current();
    const texts = columns.ids.map((id) => this.entries.get(id)!.text);
    return { columns: columns.state(), texts };
  }

  /** Holds a product (its text) in row `row` of the columns to be made; its fields for them. */
  private held(product: Product, row: number): ColumnFields {
    this.entries.set(product.id, { text: JSON.stringify(product), row });
    return columnFields(product);
  }

  get size(): number {
    return this.entries.size;
  }

  /** A product asked for itself (its page) or on a listing's page: kept decoded from its second asking. */
  get(id: string): Product | undefined {
    const known = this.decoded.get(id);
    if (known) return known;
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const product = decodedProduct(entry.text);
    if (this.admission.askedBefore(id)) this.decoded.set(id, product);
    return product;
  }

  /**
   * A product a search shows: the decoded one when it is kept, else decoded for this answer only.
   * Search hits are mostly distinct from one query to the next: keeping them (at 200,000 products,
   * a query's twenty hits decoded are ~280 KB) made every young-generation collection copy and
   * promote them, and those collections were the p99 of `?q=`. A popular query's answer keeps its
   * own products (CatalogService.presented), so nothing is lost for answers that come back.
   */
  shown(id: string): Product | undefined {
    const known = this.decoded.get(id);
    if (known) return known;
    const entry = this.entries.get(id);
    return entry && decodedProduct(entry.text);
  }

  /** The product's JSON text: the same string until the product changes (undefined: not held). */
  text(id: string): string | undefined {
    return this.entries.get(id)?.text;
  }

  /**
   * Adds or replaces products (by id). A product whose title, category, vendor, tags and price
   * stay the same (a stock change) is replaced in its row: the columns and every remembered
   * filter's matches stay right, so they are kept.
   */
  upsert(products: readonly Product[]): void {
    for (const product of products) {
      this.decoded.delete(product.id);
      const text = JSON.stringify(product);
      const previous = this.entries.get(product.id);
      if (previous && previous.row >= 0 && this.listing && sameColumnFields(this.listing.columns.fields(previous.row), product)) {
        previous.text = text;
        continue;
      }
      this.stale();
      this.changed.set(product.id, columnFields(product));
      if (previous) previous.text = text;
      else {
        this.entries.set(product.id, { text, row: -1 });
        this.reshaped = true;
      }
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      if (!this.entries.delete(id)) continue;
      this.decoded.delete(id);
      this.changed.delete(id);
      this.stale();
      this.reshaped = true;
    }
  }

  /** The columns are to be made again; those of now are what the rows of the entries refer to until then. */
  private stale(): void {
    if (!this.listing) return;
    this.before = this.listing.columns;
    this.listing = undefined;
  }

  /** The products as columns (filters, facets, title order): shared with the search index (see CatalogReadModel.columnsOf). */
  columns(): CatalogColumns {
    return this.current().columns;
  }

  private current(): Listing {
    if (this.listing) return this.listing;
    const before = this.before;
    if (before && !this.reshaped) {
      // The same products in the same rows, some of their fields changed: the columns before, patched.
      const changes = new Map<number, ColumnFields>();
      for (const [id, fields] of this.changed) changes.set(this.entries.get(id)!.row, fields);
      this.changed.clear();
      this.before = undefined;
      return (this.listing = listingOf(CatalogColumns.patched(before, changes)));
    }
    this.reshaped = false;
    const rows: ColumnFields[] = [];
    for (const [id, entry] of this.entries) rows.push(this.changed.get(id) ?? before!.fields(entry.row));
    let row = 0;
    for (const entry of this.entries.values()) entry.row = row++;
    this.changed.clear();
    this.before = undefined;
    return (this.listing = listingOf(new CatalogColumns(rows)));
  }

  /**
   * One page of the products matching the filter, ordered by title then id, and the number of all
   * matches. A filter's matches are remembered until the catalog changes, up to MAX_REMEMBERED_ROWS
   * rows in all, the least recently asked filters forgotten first.
   */
  filter(filter: ProductFilter, page: { offset: number; limit: number }): { items: Product[]; total: number } {
    const { columns, matches } = this.current();
    const key = filterKey(filter);
    let rows = matches.get(key);
    if (rows === undefined) {
      rows = columns.matching(filter);
      if (rows !== columns.byTitle) matches.set(key, rows);
    }
    const items = Array.from(rows.subarray(page.offset, page.offset + page.limit), (row) => this.get(columns.ids[row]!)!);
    return { items, total: rows.length };
  }
}

function listingOf(columns: CatalogColumns): Listing {
  return { columns, matches: new LRUCache({ maxSize: MAX_REMEMBERED_ROWS, sizeCalculation: (rows) => Math.max(1, rows.length) }) };
}

function columnFields({ id, title, category, vendor, tags, price }: Product): ColumnFields {
  return { id, title, category, vendor, tags, price };
}

/**
 * True when a product's columns cannot have changed: the same title and price, and category, vendor
 * and tags the same but for case (the columns compare them folded).
 */
function sameColumnFields(held: ColumnFields, product: Product): boolean {
  if (held.title !== product.title || held.price !== product.price) return false;
  if (foldCase(held.category) !== foldCase(product.category) || foldCase(held.vendor) !== foldCase(product.vendor)) return false;
  const tags = [...new Set(product.tags.map(foldCase))];
  return tags.length === held.tags.length && tags.every((tag, i) => tag === held.tags[i]);
}
