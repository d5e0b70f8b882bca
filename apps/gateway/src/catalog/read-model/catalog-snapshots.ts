/**
 * Persisted catalog snapshots: what the catalog read model and the in-memory search index hold of
 * a merchant (products' texts, columns, the index's analyses and vectors), written to a file after
 * the merchant was loaded from the database, so that the next start reads one file instead of
 * every row and analyses nothing (at 200,000 products, seconds instead of tens of seconds).
 *
 * The database stays the truth (DESIGN: what memory holds is derived and rebuildable). A snapshot
 * is used only when it was made at the merchant's current catalog version — a value the database's
 * triggers change whenever anything but stock changes (see the catalog_versions migration) — with
 * the same embedder; stock is checked against the database's each time it is used (stock keys:
 * only the products whose stock changed are read again). A stale, foreign or unreadable snapshot
 * is ignored and the merchant loaded from the database, after which a new one is written.
 * Merchants below `minProducts` load from the database fast enough: none is written for them.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { IndexState } from '../../search/embedded/index-state.js';
import type { CatalogState } from './merchant-catalog.js';
import { SnapshotFileError, SnapshotReader, writeSnapshotFile } from './snapshot-file.js';

const FORMAT = 1;

export interface SnapshotSettings {
  /** Where snapshot files are kept. */
  dir: string;
  /** Merchants with fewer products get none. */
  minProducts: number;
}

/** What the vectors were made by: a snapshot of another embedder's vectors is stale. */
export interface SnapshotEmbedder {
  id: string;
  dimensions: number;
}

interface SnapshotMeta {
  format: number;
  merchantId: string;
  version: string;
  embedder: string;
  dims: number;
  products: number;
  madeAt: string;
}

export interface MerchantSnapshot {
  catalog: CatalogState;
  index: IndexState;
  /** Each row's stock key (stock-key.ts) when the snapshot was made. */
  stock: readonly string[];
}

export class CatalogSnapshots {
  constructor(
    private readonly settings: SnapshotSettings,
    private readonly logger: Logger,
  ) {}

  get minProducts(): number {
    return this.settings.minProducts;
  }

  /** The merchant's file (named by a hash: any merchant id makes a safe file name). */
  path(merchantId: string): string {
    return join(this.settings.dir, `${createHash('sha256').update(merchantId).digest('hex').slice(0, 32)}.snapshot`);
  }

  /** The merchant's snapshot when it was made at `version` by `embedder`; undefined otherwise (said why in the log). */
  async read(merchantId: string, version: string, embedder: SnapshotEmbedder): Promise<MerchantSnapshot | undefined> {
    const path = this.path(merchantId);
    let reader: SnapshotReader<SnapshotMeta> | undefined;
    try {
      reader = await SnapshotReader.open<SnapshotMeta>(path);
      if (!reader) return undefined;
      const stale = staleness(reader.meta, merchantId, version, embedder);
      if (stale) {
        this.logger.info({ merchantId, reason: stale }, 'catalog snapshot is stale; loading the catalog from the database');
        return undefined;
      }
      return await readSections(reader);
    } catch (error) {
      if (!(error instanceof SnapshotFileError)) throw error;
      this.logger.warn({ merchantId, path, reason: error.message }, 'catalog snapshot unreadable; removed, loading the catalog from the database');
      await rm(path, { force: true });
      return undefined;
    } finally {
      await reader?.close();
    }
  }

  /** Writes the merchant's snapshot, made at `version`; `stock`: each row's stock key (read-model/stock-key.ts) as loaded. */
  async write(merchantId: string, version: string, embedder: SnapshotEmbedder, catalog: CatalogState, index: IndexState, stock: readonly string[]): Promise<void> {
    const products = catalog.texts.length;
    if (products < this.settings.minProducts) return;
    if (stock.length !== products) throw new Error('a stock key for every product');
    const started = performance.now();
    await mkdir(this.settings.dir, { recursive: true });
    const meta: SnapshotMeta = { format: FORMAT, merchantId, version, embedder: embedder.id, dims: embedder.dimensions, products, madeAt: new Date().toISOString() };
    const { columns } = catalog;
    const bytes = await writeSnapshotFile(this.path(merchantId), meta, {
      ids: columns.ids,
      texts: catalog.texts,
      stock,
      titles: columns.titles,
      prices: columns.prices,
      categoryOf: columns.categoryOf,
      categoryNames: columns.categoryNames,
      vendorOf: columns.vendorOf,
      vendorNames: columns.vendorNames,
      tagStarts: columns.tagStarts,
      rowTags: columns.rowTags,
      tagNames: columns.tagNames,
      rank: columns.rank,
      byTitle: columns.byTitle,
      forwardStarts: index.forward.starts,
      forwardData: index.forward.data,
      terms: index.terms,
      surfaces: index.surfaces,
      attributeStems: index.attributes.map((a) => a.stem),
      attributeNames: index.attributes.map((a) => a.name),
      attributeValues: index.attributes.map((a) => a.value),
      codes: index.codes,
      scales: index.scales,
      hasVector: index.hasVector,
    });
    this.logger.info({ merchantId, products, mb: Math.round(bytes / 1e5) / 10, ms: Math.round(performance.now() - started) }, 'catalog snapshot written');
  }
}

function staleness(meta: SnapshotMeta, merchantId: string, version: string, embedder: SnapshotEmbedder): string | undefined {
  if (meta.format !== FORMAT) return `format ${meta.format}, not ${FORMAT}`;
  if (meta.merchantId !== merchantId) return 'made for another merchant';
  if (meta.version !== version) return 'the catalog changed since it was made';
  if (meta.embedder !== embedder.id || meta.dims !== embedder.dimensions) return 'made with another embedder';
  return undefined;
}

async function readSections(reader: SnapshotReader<SnapshotMeta>): Promise<MerchantSnapshot> {
  const n = reader.meta.products;
  const ids = await reader.strings('ids');
  const texts = await reader.strings('texts');
  const stock = await reader.strings('stock');
  const columns = {
    ids,
    titles: await reader.strings('titles'),
    prices: await reader.typed('prices', 'f64'),
    categoryOf: await reader.typed('categoryOf', 'i32'),
    categoryNames: await reader.strings('categoryNames'),
    vendorOf: await reader.typed('vendorOf', 'i32'),
    vendorNames: await reader.strings('vendorNames'),
    tagStarts: await reader.typed('tagStarts', 'i32'),
    rowTags: await reader.typed('rowTags', 'i32'),
    tagNames: await reader.strings('tagNames'),
    rank: await reader.typed('rank', 'i32'),
    byTitle: await reader.typed('byTitle', 'i32'),
  };
  const starts = await reader.typed('forwardStarts', 'i32');
  const data = await reader.typed('forwardData', 'i32');
  const [stems, names, values] = [await reader.strings('attributeStems'), await reader.strings('attributeNames'), await reader.strings('attributeValues')];
  const index: IndexState = {
    forward: { size: n, starts, data },
    terms: await reader.strings('terms'),
    surfaces: await reader.strings('surfaces'),
    attributes: stems.map((stem, i) => ({ stem, name: names[i]!, value: values[i]! })),
    codes: await reader.typed('codes', 'i8'),
    scales: await reader.typed('scales', 'f32'),
    hasVector: await reader.typed('hasVector', 'u8'),
    dims: reader.meta.dims,
  };
  const rows = [ids, texts, stock, columns.titles, columns.prices, columns.categoryOf, columns.vendorOf, columns.rank, columns.byTitle, index.hasVector, index.scales];
  if (rows.some((column) => column.length !== n) || starts.length !== n + 1 || columns.tagStarts.length !== n + 1 || index.codes.length !== n * index.dims) {
    throw new SnapshotFileError('sections of different lengths');
  }
  if (starts[n] !== data.length || columns.tagStarts[n] !== columns.rowTags.length) throw new SnapshotFileError('sections do not add up');
  return { catalog: { columns, texts }, index, stock };
}
