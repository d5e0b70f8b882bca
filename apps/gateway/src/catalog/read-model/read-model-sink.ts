/** What the read model tells of what it loaded: the in-memory search index keeps itself over the same products. */
import type { CatalogColumns } from '../../search/catalog-columns.js';
import type { IndexState } from '../../search/embedded/index-state.js';
import type { CatalogRow } from '../catalog-rows.js';
import type { SnapshotEmbedder } from './catalog-snapshots.js';

/** Told of what was loaded, to keep an in-memory search index over the same products. */
export interface ReadModelSink {
  /** Everything a merchant has (a start-up or reload), batch by batch. */
  load(merchantId: string): SinkLoad;
  /** Holds a merchant's index as a persisted snapshot has it (false: the engine cannot). */
  restore(merchantId: string, state: IndexState, columns: CatalogColumns): Promise<boolean>;
  /** A merchant's index as arrays, to persist (undefined: not held, or an engine that cannot). */
  state(merchantId: string): IndexState | undefined;
  /** What made the index's vectors. */
  embedder: SnapshotEmbedder;
  /** Products added or changed, and ids no longer in the catalog. */
  upsert(merchantId: string, rows: readonly CatalogRow[], gone: readonly string[]): Promise<void>;
}

export interface SinkLoad {
  add(rows: readonly CatalogRow[]): Promise<void>;
  /** Every row was added; `columns`: the read model's columns of exactly those products, in the order added. */
  finish(columns: CatalogColumns | undefined): Promise<void>;
  /** The load failed: what was added is dropped. */
  abandon(error: unknown): void;
}
