/**
 * Keeps a search engine in step with the catalog tables. The database is the truth: the
 * index is (re)built from it, using the vectors persisted beside each product; only
 * products without a vector from the current embedder are embedded (and their vectors
 * saved). The index is fed one way: whole catalog rows (catalog-rows.ts, the rows the catalog
 * read model loads) become search documents in `documents`. An in-memory engine gets them from
 * the read model as it loads and follows changes (`sink`), or, where no read model feeds it (the
 * CLI, or before it starts), loads a merchant on its first search (`ensure`) and follows this
 * process's changes (`apply`) by reading the same rows; a persistent engine (Meilisearch) is
 * written on every change by the process that made it.
 */
import type { Logger } from 'pino';
import type { CatalogColumns } from '../search/catalog-columns.js';
import type { IndexState } from '../search/embedded/index-state.js';
import type { Embedder } from '../search/embedder.js';
import { embeddingText, toSearchDocument } from '../search/product-text.js';
import type { SearchDocument, SearchEngine } from '../search/search-engine.js';
import type { CatalogChange } from './catalog-events.js';
import type { CatalogRow } from './catalog-rows.js';
import type { CatalogStore } from './catalog-store.js';
import type { ReadModelSink } from './read-model/read-model-sink.js';
import { SerialQueues } from '../kernel/concurrency/serial-queues.js';

export interface IndexStats {
  merchants: number;
  products: number;
  embedded: number;
  /** Products indexed without a vector (the embedder failed): found by keywords only until a reindex fills them. */
  unembedded: number;
  /** Why, when some are (the embedder's last error). */
  embedderError?: string;
  ms: number;
}

export class SearchIndexer {
  private readonly loaded = new Map<string, Promise<void>>();
  private readonly queues = new SerialQueues();
  private lastEmbedderError: string | undefined;
  /** Vectors made (missing or stale), and documents indexed without one, since start: for the start-up statistics. */
  embeddedCount = 0;
  unembeddedCount = 0;

  constructor(
    private readonly store: CatalogStore,
    readonly engine: SearchEngine,
    private readonly embedder: Embedder,
    private readonly logger: Logger,
  ) {}

  /** Runs `work` after every earlier change of the same merchant, so that changes apply in the order heard. */
  private serial<T>(merchantId: string, work: () => Promise<T>): Promise<T> {
    return this.queues.run(merchantId, work);
  }

  /** Search documents for catalog rows, embedding (and saving) the vectors that are missing or stale. */
  private async documents(merchantId: string, rows: readonly CatalogRow[]): Promise<{ documents: SearchDocument[]; embedded: number; unembedded: number }> {
    const stale = rows.filter((row) => !row.embedding || row.embeddingModel !== this.embedder.id || row.embedding.length !== this.embedder.dimensions);
    const fresh = new Map<string, Float32Array>();
    if (stale.length) {
      try {
        const vectors = await this.embedder.embed(stale.map((row) => embeddingText(row.product)));
        stale.forEach((row, i) => fresh.set(row.product.id, vectors[i]!));
        await this.store.saveEmbeddings(
          merchantId,
          this.embedder.id,
          stale.map((row) => ({ id: row.product.id, vector: fresh.get(row.product.id)! })),
        );
      } catch (error) {
        this.lastEmbedderError = (error as Error).message;
        this.logger.warn({ err: error, merchantId, products: stale.length }, 'could not embed products; they are found by keywords only until the next reindex');
      }
    }
    const documents = rows.map((row) => {
      const vector = fresh.get(row.product.id) ?? (row.embeddingModel === this.embedder.id ? row.embedding : undefined);
      return toSearchDocument(merchantId, row.product, vector);
    });
    const unembedded = documents.filter((d) => !d.vector).length;
    this.embeddedCount += fresh.size;
    this.unembeddedCount += unembedded;
    return { documents, embedded: fresh.size, unembedded };
  }

  /**
   * An in-memory engine fed by the catalog read model: the products it loads are indexed
   * as they are (the documents share the products' strings), so the catalog is read once
   * and held once. A persistent engine has no sink: it is written by the process that
   * changed the catalog (apply).
   */
  sink(columnsOf?: (merchantId: string) => CatalogColumns | undefined): ReadModelSink | undefined {
    if (this.engine.persistent) return undefined;
    // The index is built on the read model's own columns of the products (filters, facets, title order).
    if (columnsOf) this.engine.shareColumns?.(columnsOf);
    return {
      load: (merchantId: string) => {
        const load = this.load(merchantId, { sharedColumns: true });
        let settle!: (end: { columns: CatalogColumns | undefined } | { error: unknown }) => void;
        const ended = new Promise<{ columns: CatalogColumns | undefined } | { error: unknown }>((resolve) => (settle = resolve));
        const loaded = ended.then((end) => {
          if ('error' in end) throw end.error;
          return this.serial(merchantId, () => load.finish(end.columns));
        });
        // A search meanwhile waits for this load rather than read the merchant itself (ensure).
        this.loaded.set(merchantId, loaded);
        loaded.catch(() => this.loaded.delete(merchantId));
        return {
          add: (rows: readonly CatalogRow[]) => load.add(rows),
          finish: (columns: CatalogColumns | undefined) => {
            settle({ columns });
            return loaded;
          },
          abandon: (error: unknown) => settle({ error }),
        };
      },
      restore: (merchantId: string, state: IndexState, columns: CatalogColumns) => {
        const restore = this.engine.restore;
        if (!restore) return Promise.resolve(false);
        const restored = this.serial(merchantId, async () => restore.call(this.engine, merchantId, state, columns));
        this.loaded.set(merchantId, restored);
        restored.catch(() => this.loaded.delete(merchantId));
        return restored.then(() => true);
      },
      state: (merchantId: string) => this.engine.state?.(merchantId),
      embedder: { id: this.embedder.id, dimensions: this.embedder.dimensions },
      upsert: async (merchantId: string, rows: readonly CatalogRow[], gone: readonly string[]) => {
        if (!this.loaded.has(merchantId)) return; // loaded whole on its first search
        await this.serial(merchantId, async () => {
          const { documents } = await this.documents(merchantId, rows);
          if (documents.length) await this.engine.index(documents);
          if (gone.length) await this.engine.remove(merchantId, gone);
        });
      },
    };
  }

  /**
   * A merchant's catalog streamed into the engine batch by batch (SearchEngine.load), or gathered and
   * given at once to an engine that cannot stream: counts what was embedded meanwhile.
   */
  private load(merchantId: string, options: { sharedColumns: boolean }) {
    const engine = this.engine;
    const streamed = engine.load?.(merchantId, options);
    const gathered: SearchDocument[] = [];
    const stats = { products: 0, embedded: 0, unembedded: 0 };
    return {
      stats,
      add: async (rows: readonly CatalogRow[]) => {
        const batch = await this.documents(merchantId, rows);
        stats.products += batch.documents.length;
        stats.embedded += batch.embedded;
        stats.unembedded += batch.unembedded;
        if (streamed) streamed.add(batch.documents);
        else gathered.push(...batch.documents);
      },
      finish: async (columns?: CatalogColumns) => {
        if (streamed) await streamed.finish(columns);
        else await engine.replaceMerchant(merchantId, gathered);
      },
    };
  }

  /** Rebuilds a merchant's part of the index from the database. */
  rebuildMerchant(merchantId: string): Promise<{ products: number; embedded: number; unembedded: number }> {
    return this.serial(merchantId, async () => {
      const load = this.load(merchantId, { sharedColumns: false });
      for await (const rows of this.store.catalogRows(merchantId)) await load.add(rows);
      await load.finish();
      return load.stats;
    });
  }

  /** Rebuilds the index for every merchant (or the named ones) from the database. */
  async rebuild(merchantIds?: readonly string[]): Promise<IndexStats> {
    const started = performance.now();
    const merchants = merchantIds ?? (await this.store.merchantsWithProducts());
    let products = 0;
    let embedded = 0;
    let unembedded = 0;
    this.lastEmbedderError = undefined;
    for (const merchantId of merchants) {
      const load = this.rebuildMerchant(merchantId);
      this.loaded.set(merchantId, load.then(() => {}));
      const stats = await load;
      products += stats.products;
      embedded += stats.embedded;
      unembedded += stats.unembedded;
    }
    const why = unembedded && this.lastEmbedderError !== undefined ? { embedderError: this.lastEmbedderError } : {};
    return { merchants: merchants.length, products, embedded, unembedded, ...why, ms: performance.now() - started };
  }

  /** Makes sure a merchant is in an in-memory index before it is searched. */
  ensure(merchantId: string): Promise<void> {
    if (this.engine.persistent) return Promise.resolve();
    let loaded = this.loaded.get(merchantId);
    if (!loaded) {
      loaded = this.rebuildMerchant(merchantId).then(() => {});
      this.loaded.set(merchantId, loaded);
      loaded.catch(() => this.loaded.delete(merchantId));
    }
    return loaded;
  }

  /** A committed change: write it to the engine (an in-memory engine only for merchants it holds). */
  async apply(change: CatalogChange): Promise<void> {
    const { merchantId, ids } = change;
    if (change.kind === 'stock') return; // stock is not searched
    if (!this.engine.persistent && !this.loaded.has(merchantId)) return;
    try {
      if (ids === undefined) {
        const load = this.rebuildMerchant(merchantId);
        this.loaded.set(merchantId, load.then(() => {}));
        await load;
        return;
      }
      await this.serial(merchantId, async () => {
        const rows = await this.store.catalogRowsById(merchantId, ids);
        const { documents } = await this.documents(merchantId, rows);
        await this.engine.index(documents);
        const found = new Set(rows.map((row) => row.product.id));
        const gone = ids.filter((id) => !found.has(id));
        if (gone.length) await this.engine.remove(merchantId, gone);
      });
    } catch (error) {
      this.logger.error({ err: error, merchantId }, 'search index update failed; rebuild it with `catalog reindex`');
    }
  }
}
