/**
 * The scale-out engine: Meilisearch through its official client. Keyword ranking is
 * Meilisearch's own; with a query vector the search is hybrid (`semanticRatio`), and
 * `_rankingScore` becomes the hit's score. Documents carry the gateway's vectors
 * (user-provided embedder) unless Meilisearch is set to call the embedding endpoint itself
 * (REST embedder). The index is shared by every gateway replica and written by whichever
 * process commits a change.
 */
import { Meilisearch, type Index } from 'meilisearch';
import type { SearchDocument, SearchEngine, SearchRequest, SearchResult } from '../search-engine.js';
import { documentUid, indexSettings, quote, toMeiliProduct, type MeiliEmbedderConfig, type MeiliProduct } from './meilisearch-documents.js';
import { fromMeiliFacets } from './meilisearch-facets.js';
import { searchParams, searchText } from './meilisearch-query.js';

export interface MeilisearchEngineOptions {
  url: string;
  apiKey?: string | undefined;
  indexUid?: string;
  embedder: MeiliEmbedderConfig;
  /** 0 = keywords only … 1 = vectors only. */
  semanticRatio: number;
  /** How long to wait for an indexing task. */
  taskTimeoutMs?: number;
}

export class MeilisearchEngine implements SearchEngine {
  readonly name = 'meilisearch';
  readonly persistent = true;
  private readonly client: Meilisearch;
  private readonly products: Index<MeiliProduct>;
  private ready: Promise<void> | undefined;

  constructor(private readonly options: MeilisearchEngineOptions) {
    this.client = new Meilisearch({ host: options.url, ...(options.apiKey ? { apiKey: options.apiKey } : {}) });
    this.products = this.client.index<MeiliProduct>(options.indexUid ?? 'products');
  }

  private wait = { timeout: 0, interval: 50 };

  /** Creates the index and applies its settings once (idempotent). */
  setup(): Promise<void> {
    this.ready ??= (async () => {
      this.wait = { timeout: this.options.taskTimeoutMs ?? 120_000, interval: 50 };
      await this.client.updateExperimentalFeatures({ containsFilter: true });
      const uid = this.options.indexUid ?? 'products';
      try {
        await this.client.getIndex(uid);
      } catch {
        await this.client.createIndex(uid, { primaryKey: 'uid' }).waitTask(this.wait);
      }
      await this.products.updateSettings(indexSettings(this.options.embedder)).waitTask(this.wait);
    })();
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  private get userProvided(): boolean {
    return this.options.embedder.source === 'userProvided';
  }

  async index(documents: readonly SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    await this.setup();
    const task = await this.products.addDocuments(documents.map((d) => toMeiliProduct(d, this.userProvided))).waitTask(this.wait);
    if (task.status !== 'succeeded') throw new Error(`Meilisearch indexing failed: ${task.error?.message ?? task.status}`);
  }

  async remove(merchantId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.setup();
    await this.products.deleteDocuments(ids.map((id) => documentUid(merchantId, id))).waitTask(this.wait);
  }

  async replaceMerchant(merchantId: string, documents: readonly SearchDocument[]): Promise<void> {
    await this.setup();
    await this.products.deleteDocuments({ filter: `merchant_id = ${quote(merchantId)}` }).waitTask(this.wait);
    for (let start = 0; start < documents.length; start += 5_000) await this.index(documents.slice(start, start + 5_000));
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    await this.setup();
    const hybrid = request.vector !== undefined && this.options.semanticRatio > 0;
    const facets = request.facets?.length ? request.facets : undefined;
    const response = await this.products.search(searchText(request.text), searchParams(request, this.options.semanticRatio));
    let previous = 1;
    const hits = response.hits.map((hit) => {
      // Meilisearch's order is its ranking; keep the scores non-increasing along it and within [0, 1].
      const score = Math.min(previous, Math.max(0, Math.min(1, hit._rankingScore ?? 0)));
      previous = score;
      return { id: hit.product_id, score };
    });
    const total = 'totalHits' in response && typeof response.totalHits === 'number' ? response.totalHits : (response as { estimatedTotalHits?: number }).estimatedTotalHits ?? hits.length;
    return {
      hits,
      total,
      mode: hybrid ? 'hybrid' : 'keyword',
      ...(facets ? { facets: fromMeiliFacets(facets, response.facetDistribution, response.facetStats) } : {}),
    };
  }

  async close(): Promise<void> {}
}
