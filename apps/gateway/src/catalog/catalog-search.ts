/**
 * Search with `q`: embeds the query (never failing the search, see QueryEmbedder), asks the
 * engine, and keeps the engine's index in step with the catalog (SearchIndexer): an in-memory
 * index is fed by the catalog read model (which hears every process's changes), a persistent
 * one is written by the process that changed the catalog.
 */
import type { QueryEmbedder } from '../search/query-embedder.js';
import type { FacetName, SearchFilters, SearchResult } from '../search/search-engine.js';
import { planQuery, type QueryPlan } from '../search/query/plan-query.js';
import type { Embedder } from '../search/embedder.js';
import type { CatalogEvents } from './catalog-events.js';
import type { CatalogStore } from './catalog-store.js';
import type { CatalogReadModel } from './read-model/catalog-read-model.js';
import type { ReadModelSink } from './read-model/read-model-sink.js';
import type { IndexStats, SearchIndexer } from './search-indexer.js';
import { AnswerMemo } from './answer-memo.js';

/** An engine's answer, with how the query was understood. */
export type PlannedResult = SearchResult & { plan: QueryPlan };

export class CatalogSearch {
  private readonly unsubscribe: () => void;
  /**
   * The catalog's remembered answers (answer-memo.ts): here whole search answers (query understood,
   * spelled, embedded, ranked) of an engine that answers from in-memory snapshots, each valid for the
   * snapshot it came from — the same object while nothing changes; CatalogService keeps its listing pages here too.
   */
  readonly answers = new AnswerMemo();
  /** Set when the catalog read model feeds an in-memory index (see SearchIndexer.sink). */
  private fedByReadModel = false;

  constructor(
    /** This process's committed catalog changes (catalog-events.ts). */
    private readonly events: CatalogEvents,
    private readonly store: CatalogStore,
    readonly indexer: SearchIndexer,
    readonly queryEmbedder: QueryEmbedder,
  ) {
    // This process's committed changes: a persistent engine is written here; an in-memory one hears
    // them from the read model once that runs (before, it follows them itself, for the merchants it holds).
    this.unsubscribe = events.on(async (change) => {
      if (!this.fedByReadModel) await indexer.apply(change);
    });
  }

  /**
   * Understands the query first (prices in words become bounds, see search/query/), embeds
   * what is left as the catalog spells it, and asks the engine. A blank `q` lists what the
   * filters allow (used for facets without `q`). The same question to the same snapshot gets
   * the same answer object (shoppers and agents repeat popular queries).
   */
  async search(
    merchantId: string,
    q: string,
    filters: SearchFilters,
    page: { offset: number; limit: number },
    options: { facets?: readonly FacetName[] | undefined } = {},
  ): Promise<PlannedResult> {
    await this.indexer.ensure(merchantId);
    const engine = this.indexer.engine;
    const snapshot = engine.snapshot?.(merchantId);
    const key = snapshot && JSON.stringify(['search', merchantId, q, filters.category, filters.tag, filters.minPrice, filters.maxPrice, page.offset, page.limit, options.facets]);
    const known = key !== undefined ? this.answers.recall<PlannedResult>(key, (basis) => basis === snapshot) : undefined;
    if (known) return known;
    const plan = planQuery(q, filters);
    const vector = plan.text ? await this.queryEmbedder.embed(engine.spell?.(merchantId, plan.text) ?? plan.text) : undefined;
    const result = await engine.search({ merchantId, text: plan.text, vector, filters: plan.filters, ...page, pricePreference: plan.pricePreference, facets: options.facets });
    const answer = { ...result, plan };
    // Not an answer made without the query's vector when it should have one (an embedder that failed this time).
    if (key !== undefined && (!plan.text || vector)) this.answers.remember(key, snapshot!, answer);
    return answer;
  }

  /** What the read model should feed as it loads (an in-memory index), and from then on it does. */
  feedFromReadModel(readModel?: Pick<CatalogReadModel, 'columnsOf'>): ReadModelSink | undefined {
    const sink = this.indexer.sink(readModel && ((merchantId) => readModel.columnsOf(merchantId)));
    if (sink) this.fedByReadModel = true;
    return sink;
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
    for (const merchantId of merchants) await this.store.announce(this.events.notice({ merchantId, ids: undefined }));
    return stats;
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await this.indexer.engine.close();
  }
}
