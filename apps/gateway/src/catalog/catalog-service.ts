import { InvalidRequestError, NotFoundError } from '../kernel/errors.js';
import type { Product, ProductSearchResponse } from '../contract/types.js';
import type { IndexStats } from './search-indexer.js';
import type { CatalogSearch, PlannedResult } from './catalog-search.js';
import type { CatalogStore } from './catalog-store.js';
import type { ProductFilter } from '../search/filter.js';
import type { FacetName } from '../search/search-engine.js';
import { rememberedList, scored } from './shown-items.js';
import { mark, marked } from '../kernel/hidden-property.js';
import { understanding } from './query-understanding.js';
import type { CatalogReadModel, Listen } from './read-model/catalog-read-model.js';

export interface SearchQuery extends ProductFilter {
  q?: string | undefined;
  /** Facets to count over every match (see search/embedded/facet-counter.ts). */
  facets?: readonly FacetName[] | undefined;
  page: number;
  pageSize: number;
}

/** PostgreSQL cannot hold the NUL character: a filter or id with one is refused, as the database refused it before the read model. */
function refuseNul(value: string | undefined, param: string): void {
  if (value?.includes('\u0000')) throw new InvalidRequestError('Text must not contain the NUL character (\\u0000)', param);
}

/** How an answer was last shown (see presented): kept on the answer. */
const SHOWN = Symbol('shown as');

/** A search answer as shown: its items and the understanding and facets beside them. */
interface Presented {
  /** What the items were made of (see presented). */
  basis: readonly unknown[];
  items: Product[];
  extra: Pick<ProductSearchResponse, 'query_understanding' | 'facets'>;
}

export class CatalogService {

  constructor(
    private readonly store: CatalogStore,
    readonly searchIndex: CatalogSearch,
    readonly readModel: CatalogReadModel,
    /** Where the read model hears other processes' changes (Database.listen); without it, reads go to the database. */
    private readonly listen?: Listen,
  ) {}

  /** The currencies the merchant's products are priced in (empty without products). */
  currencies(merchantId: string): Promise<Set<string>> {
    return this.store.currencies(merchantId);
  }

  /** Read from memory when the read model is live (see CatalogReadModel), else from the database. */
  async get(merchantId: string, productId: string): Promise<Product> {
    refuseNul(productId, 'product_id');
    const inMemory = this.readModel.catalog(merchantId);
    const product = inMemory ? inMemory.get(productId) : await this.store.get(merchantId, productId);
    if (!product) throw new NotFoundError(`No product ${JSON.stringify(productId)}`, 'product_id');
    return product;
  }

  /**
   * Without `q` (or with a blank one): every match of the filters, ordered by title then id,
   * from the read model (or the database while it is not live). With `q`: hybrid search (keywords and meaning) by the search engine,
   * ranked best first, each item with a similarity_score in [0, 1].
   */
  async search(
    merchantId: string,
    query: SearchQuery,
    version: string,
    /** Told how long the engine took for a query with q, and whether it ranked hybrid or by keywords only. */
    onSearch?: (seconds: number, mode: 'hybrid' | 'keyword') => void,
  ): Promise<ProductSearchResponse> {
    if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
      throw new InvalidRequestError('min_price must not be greater than max_price', 'min_price');
    }
    refuseNul(query.category, 'category');
    refuseNul(query.tag, 'tag');
    const page = { offset: (query.page - 1) * query.pageSize, limit: query.pageSize };
    const filters = { category: query.category, tag: query.tag, minPrice: query.minPrice, maxPrice: query.maxPrice };
    const q = query.q?.trim();
    let items: Product[];
    let total: number;
    let extra: Pick<ProductSearchResponse, 'query_understanding' | 'facets'> = {};
    if (q) {
      const started = performance.now();
      const result = await this.searchIndex.search(merchantId, q, filters, page, { facets: query.facets });
      onSearch?.((performance.now() - started) / 1000, result.mode);
      const inMemory = this.readModel.catalog(merchantId);
      const ids = result.hits.map((hit) => hit.id);
      if (inMemory) {
        ({ items, extra } = this.presented(result, ids.map((id) => inMemory.text(id)), () => ids.flatMap((id) => inMemory.shown(id) ?? [])));
      } else {
        const products = await this.store.getMany(merchantId, ids);
        ({ items, extra } = this.presented(result, products, () => products));
      }
      total = result.total;
    } else {
      const inMemory = this.readModel.catalog(merchantId);
      if (inMemory) {
        ({ items, total } = inMemory.filter(filters, page));
        items = this.listed(merchantId, filters, page, items);
      } else {
        const result = await this.store.filter(merchantId, filters, page);
        items = await this.store.getMany(merchantId, result.ids);
        total = result.total;
      }
      // Facets without q: counted by the search engine over every product the filters allow.
      if (query.facets?.length) extra = { facets: (await this.searchIndex.search(merchantId, '', filters, { offset: 0, limit: 0 }, { facets: query.facets })).facets };
    }
    return { items, page: query.page, page_size: query.pageSize, total, version, generated_at: new Date().toISOString(), ...extra };
  }

  /**
   * The answer's items (each product with its score) and what was understood. An answer object
   * the engine gave before (see CatalogSearch) whose products are as they were then (`basis`: the
   * read model's texts of the hits, the same strings until a product changes; or the products
   * themselves) is shown as it was shown then: the same objects, whose JSON text is remembered
   * (api/product-json.ts). Else the hits' `products` are made now.
   */
  private presented(result: PlannedResult, basis: readonly unknown[], products: () => Product[]): Presented {
    const known = marked<Presented>(result, SHOWN);
    if (known && known.basis.length === basis.length && known.basis.every((part, i) => part === basis[i])) return known;
    const scores = new Map(result.hits.map((hit) => [hit.id, hit.score]));
    const shown = {
      basis,
      items: rememberedList(products().map((product) => scored(product, scores.get(product.id) ?? 0))),
      extra: { query_understanding: understanding(result.plan, result.attributes), ...(result.facets ? { facets: result.facets } : {}) },
    };
    mark(result, SHOWN, shown);
    return shown;
  }

  /**
   * A listing's page as shown before, when it holds the very same product objects (nothing changed
   * since): that list, whose bytes are remembered (api/product-json.ts). Kept with the search answers (answer-memo.ts).
   */
  private listed(merchantId: string, filters: ProductFilter, page: { offset: number; limit: number }, items: Product[]): Product[] {
    const key = JSON.stringify(['listing', merchantId, filters.category, filters.tag, filters.minPrice, filters.maxPrice, page.offset, page.limit]);
    const sameItems = (known: object) => (known as Product[]).length === items.length && (known as Product[]).every((product, i) => product === items[i]);
    const known = this.searchIndex.answers.recall<Product[]>(key, sameItems);
    if (known) return known;
    const list = rememberedList(items);
    this.searchIndex.answers.remember(key, list, list);
    return items;
  }

  /**
   * Start-up: loads the catalog read model, which feeds an in-memory search index as it
   * loads, and starts hearing changes. Statistics of the load (and of the vectors made).
   */
  async warmUp(): Promise<IndexStats> {
    const { indexer } = this.searchIndex;
    const [embeddedBefore, unembeddedBefore] = [indexer.embeddedCount, indexer.unembeddedCount];
    const stats = await this.readModel.start(this.listen, this.searchIndex.feedFromReadModel(this.readModel));
    return { ...stats, embedded: indexer.embeddedCount - embeddedBefore, unembedded: indexer.unembeddedCount - unembeddedBefore };
  }

  async close(): Promise<void> {
    await this.readModel.close();
    await this.searchIndex.close();
  }
}
