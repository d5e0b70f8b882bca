/**
 * Search with `q`: embeds the query (never failing the search, see QueryEmbedder), asks the
 * engine, and keeps the engine's index in step with the catalog (SearchIndexer), hearing
 * of committed imports in this process directly and, on PostgreSQL, of other processes'
 * imports through LISTEN/NOTIFY.
 */
import type { Logger } from 'pino';
import type { Prisma } from '../db/database.js';
import type { QueryEmbedder } from '../search/query-embedder.js';
import type { FacetName, SearchFilters, SearchResult } from '../search/search-engine.js';
import { planQuery, type QueryPlan } from '../search/query/plan-query.js';
import type { Embedder } from '../search/embedder.js';
import { listenOnPostgres, type Subscription } from '../db/pg-listener.js';
import { changeSource, decodeChange, encodeChange, onCatalogChange } from './catalog-events.js';
import type { CatalogStore } from './catalog-store.js';
import type { IndexStats, SearchIndexer } from './search-indexer.js';

export interface CatalogSearchOptions {
  /** PostgreSQL URL to LISTEN on for other processes' imports (in-memory engines only). */
  databaseUrl?: string | undefined;
  /** Releases what the builder opened for this search (a bulk reader). */
  onClose?: (() => Promise<void> | undefined) | undefined;
}

export class CatalogSearch {
  private listener: Subscription | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly prisma: Prisma,
    private readonly store: CatalogStore,
    readonly indexer: SearchIndexer,
    readonly queryEmbedder: QueryEmbedder,
    private readonly logger: Logger,
    private readonly options: CatalogSearchOptions = {},
  ) {
    this.unsubscribe = onCatalogChange(prisma, (change) => indexer.apply(change));
  }

  /**
   * Understands the query first (prices in words become bounds, see search/query/), embeds
   * what is left as the catalog spells it, and asks the engine. A blank `q` lists what the
   * filters allow (used for facets without `q`).
   */
  async search(
    merchantId: string,
    q: string,
    filters: SearchFilters,
    page: { offset: number; limit: number },
    options: { facets?: readonly FacetName[] | undefined } = {},
  ): Promise<SearchResult & { plan: QueryPlan }> {
    await this.indexer.ensure(merchantId);
    const engine = this.indexer.engine;
    const plan = planQuery(q, filters);
    const vector = plan.text ? await this.queryEmbedder.embed(engine.spell?.(merchantId, plan.text) ?? plan.text) : undefined;
    const result = await engine.search({ merchantId, text: plan.text, vector, filters: plan.filters, ...page, pricePreference: plan.pricePreference, facets: options.facets });
    return { ...result, plan };
  }

  /** Builds the index (in-memory engines) and starts hearing other processes' changes. */
  async warmUp(): Promise<IndexStats | undefined> {
    const stats = await this.indexer.warmUp();
    if (this.options.databaseUrl && !this.indexer.engine.persistent && !this.listener) {
      const ownSource = changeSource(this.prisma);
      const refresh = (merchantId: string | undefined) => {
        const work = merchantId === undefined ? this.indexer.rebuild() : this.indexer.apply({ merchantId, ids: undefined });
        work.catch((error: unknown) => this.logger.error({ err: error, merchantId }, 'search index refresh failed'));
      };
      // Other processes' imports (an operator's `catalog import` while the gateway runs); after a lost
      // connection anything may have changed meanwhile, so everything is rebuilt.
      this.listener = await listenOnPostgres(this.options.databaseUrl, 'catalog_changed', {
        onNotify: (payload) => {
          const change = decodeChange(payload);
          if (change && change.source !== ownSource) refresh(change.merchantId);
        },
        onLost: (error) => this.logger.warn({ err: error }, 'catalog change listener lost its connection; reconnecting'),
        onRestored: () => refresh(undefined),
      });
    }
    return stats;
  }

  /** The embedder that makes the products' vectors (imports use the same one). */
  get embedder(): Embedder {
    return this.queryEmbedder.embedder;
  }

  /** How many products lack a vector from the current embedder (keyword search only for them; `catalog reindex` fills them). */
  missingVectors(): Promise<number> {
    return this.store.countWithoutVectors(this.embedder.id, this.embedder.dimensions);
  }

  /**
   * `catalog reindex`: rebuilds the index from the database (embedding only products whose
   * vector is missing or from another embedder), then tells running gateways to reload.
   */
  async reindex(merchantIds?: readonly string[]): Promise<IndexStats> {
    const stats = await this.indexer.rebuild(merchantIds);
    const merchants = merchantIds ?? (await this.store.merchantsWithProducts());
    for (const merchantId of merchants) await this.store.announce(encodeChange(changeSource(this.prisma), merchantId));
    return stats;
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await this.listener?.close();
    await this.indexer.engine.close();
    await this.options.onClose?.();
  }
}
