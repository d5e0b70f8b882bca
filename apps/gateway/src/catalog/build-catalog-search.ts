/**
 * Chooses and assembles the search parts from the configuration: the embedder (local word
 * vectors, or an OpenAI-compatible endpoint) and the engine (embedded, or Meilisearch).
 */
import pino, { type Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { Embedder } from '../search/embedder.js';
import { EmbeddedSearchEngine } from '../search/embedded/embedded-engine.js';
import { lazyLocalEmbedder } from '../search/embedders/local/local-embedder.js';
import { OpenAiEmbedder } from '../search/embedders/rest/openai-embedder.js';
import { MeilisearchEngine } from '../search/meilisearch/meilisearch-engine.js';
import { QueryEmbedder } from '../search/query-embedder.js';
import type { SearchEngine } from '../search/search-engine.js';
import { catalogEvents } from './catalog-events.js';
import { CatalogSearch } from './catalog-search.js';
import { CatalogService } from './catalog-service.js';
import { CatalogStore } from './catalog-store.js';
import { SearchIndexer } from './search-indexer.js';
import { CatalogSnapshots } from './read-model/catalog-snapshots.js';
import { CatalogReadModel, type Listen } from './read-model/catalog-read-model.js';
import { listenOnPostgres, type NotificationHandlers } from '../db/pg-listener.js';

export type SearchConfig = Pick<
  Config,
  | 'searchEngine'
  | 'meilisearchUrl'
  | 'meilisearchApiKey'
  | 'embedder'
  | 'embedderUrl'
  | 'embedderApiKey'
  | 'embedderModel'
  | 'embedderDimensions'
  | 'searchSemanticRatio'
  | 'databaseUrl'
  | 'catalogSnapshotDir'
  | 'catalogSnapshotMinProducts'
>;

export interface SearchParts {
  embedder?: Embedder;
  engine?: SearchEngine;
}

export function buildEmbedder(config: Partial<SearchConfig>): Embedder {
  if (config.embedder === 'openai' && config.embedderUrl) {
    return new OpenAiEmbedder({
      url: config.embedderUrl,
      apiKey: config.embedderApiKey,
      model: config.embedderModel,
      dimensions: config.embedderDimensions ?? 1536,
    });
  }
  return lazyLocalEmbedder();
}

export function buildEngine(config: Partial<SearchConfig>, embedder: Embedder): SearchEngine {
  if (config.searchEngine === 'meilisearch' && config.meilisearchUrl) {
    return new MeilisearchEngine({
      url: config.meilisearchUrl,
      apiKey: config.meilisearchApiKey,
      embedder: { source: 'userProvided', dimensions: embedder.dimensions },
      semanticRatio: config.searchSemanticRatio ?? 0.5,
    });
  }
  return new EmbeddedSearchEngine({ dimensions: embedder.dimensions });
}

export function buildCatalogSearch(
  db: Database,
  store: CatalogStore,
  options: {
    config?: Partial<SearchConfig> | undefined;
    logger?: Logger | undefined;
    parts?: SearchParts | undefined;
  } = {},
): CatalogSearch {
  const config = options.config ?? {};
  const logger = options.logger ?? pino({ level: 'silent' });
  const embedder = options.parts?.embedder ?? buildEmbedder(config);
  const engine = options.parts?.engine ?? buildEngine(config, embedder);
  return new CatalogSearch(catalogEvents(db), store, new SearchIndexer(store, engine, embedder, logger), new QueryEmbedder(embedder, logger));
}

/**
 * The catalog service over a database, with the configured search and the catalog read model.
 * `listen` (Database.listen) is how the read model hears other processes' changes; without it,
 * on PostgreSQL (`config.databaseUrl`) it listens on a connection of its own, and on PGlite
 * reads stay on the database.
 */
export function buildCatalogService(
  db: Database,
  options: {
    config?: Partial<SearchConfig> | undefined;
    logger?: Logger | undefined;
    parts?: SearchParts | undefined;
    listen?: Listen | undefined;
  } = {},
): CatalogService {
  const url = options.config?.databaseUrl;
  const store = new CatalogStore(db);
  const logger = options.logger ?? pino({ level: 'silent' });
  const listen = options.listen ?? (url ? (channel: string, handlers: NotificationHandlers) => listenOnPostgres(url, channel, handlers) : undefined);
  const search = buildCatalogSearch(db, store, options);
  const { catalogSnapshotDir: dir, catalogSnapshotMinProducts: minProducts } = options.config ?? {};
  const snapshots = dir ? new CatalogSnapshots({ dir, minProducts: minProducts ?? 10_000 }, logger) : undefined;
  return new CatalogService(store, search, new CatalogReadModel(catalogEvents(db), store, logger, snapshots), listen);
}
