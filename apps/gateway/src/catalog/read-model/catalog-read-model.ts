/**
 * The catalog read model: every merchant's products in memory (MerchantCatalog), loaded
 * from the database at start-up and kept current by the catalog's change events — this
 * process's own committed writes (catalog-events.ts, applied before the write's caller
 * answers) and every process's NOTIFY catalog_changed (heard through Database.listen). The
 * same load feeds the in-memory search index (`sink`), so the catalog is read once and its
 * text held once: the index's documents are the products' own strings.
 *
 * Reads are answered from memory only while every change is heard: until the first load is
 * done and the LISTEN is in place, and whenever its connection is lost (until everything is
 * loaded again), `catalog()` answers undefined and the caller reads the database — never
 * data of unknown age. Writes go to the database only.
 *
 * A failed update or reload takes the model out of service (`isLive` false: reads go to the
 * database, correct but dearer) and a reload is retried with backoff (concurrency/retry-until.ts) until
 * one succeeds, so the model heals by itself once the database answers again.
 */
import type { Logger } from 'pino';
import type { NotificationHandlers, Subscription } from '../../db/pg-listener.js';
import type { CatalogColumns } from '../../search/catalog-columns.js';
import { CATALOG_CHANNEL, decodeChange, type CatalogChange, type CatalogEvents } from '../catalog-events.js';
import type { CatalogRow } from '../catalog-rows.js';
import type { CatalogStore } from '../catalog-store.js';
import { nextTurn } from '../../kernel/concurrency/next-turn.js';
import { retryUntil } from '../../kernel/concurrency/retry-until.js';
import { SerialQueues } from '../../kernel/concurrency/serial-queues.js';
import { MerchantCatalog } from './merchant-catalog.js';
import { KeptSnapshots } from './kept-snapshots.js';
import type { ReadModelSink } from './read-model-sink.js';
import { restockHeld } from './restock.js';
import { stockKey } from './stock-key.js';
import type { CatalogSnapshots } from './catalog-snapshots.js';

export type Listen = (channel: string, handlers: NotificationHandlers) => Promise<Subscription>;

export interface LoadStats {
  merchants: number;
  products: number;
  ms: number;
}

const EMPTY = new MerchantCatalog();



export class CatalogReadModel {
  private readonly merchants = new Map<string, MerchantCatalog>();
  private readonly queues = new SerialQueues();
  /** Merchants with a heard change not yet applied: read from the database meanwhile. */
  private readonly pending = new Map<string, number>();
  private subscription: Subscription | undefined;
  /** True while every change is heard and everything is loaded. */
  private live = false;
  /** Bumped by every lost connection, so that a reload begun before a loss cannot declare the model live. */
  private epoch = 0;
  private started = false;
  private closed = false;
  /** Whether changes are being heard (the LISTEN is in place and its connection up). */
  private listening = false;
  /** The reload under way after a failure or a lost connection (see heal). */
  private healing: Promise<void> | undefined;
  private readonly source: string;
  private readonly unsubscribe: () => void;
  private sink: ReadModelSink | undefined;
  /** The persisted snapshots merchants start from and are written to, when there are any. */
  private readonly kept: KeptSnapshots | undefined;

  /** `events`: the bus of this process's committed changes (catalog-events.ts); `snapshots`: persisted snapshots to start from and write. */
  constructor(
    events: CatalogEvents,
    private readonly store: CatalogStore,
    private readonly logger: Logger,
    snapshots?: CatalogSnapshots,
  ) {
    this.source = events.source;
    this.kept = snapshots && new KeptSnapshots(snapshots, store, logger);
    // This process's own writes, applied before their callers answer (read-your-writes).
    this.unsubscribe = events.on((change) => (this.started ? this.apply(change) : Promise.resolve()));
  }

  /** The merchant's products when reads may be answered from memory; undefined: read the database. */
  catalog(merchantId: string): MerchantCatalog | undefined {
    if (!this.live || this.pending.has(merchantId)) return undefined;
    return this.merchants.get(merchantId) ?? EMPTY;
  }

  /**
   * The merchant's products as columns as they are now (live or not): what the in-memory search index is
   * built on (SearchEngine.shareColumns), so that the catalog's columns and title order exist once.
   */
  columnsOf(merchantId: string): CatalogColumns | undefined {
    return this.merchants.get(merchantId)?.columns();
  }

  get isLive(): boolean {
    return this.live;
  }

  /** Started to serve reads and not serving them now (a failure or a lost connection: reads go to the database). */
  get isDegraded(): boolean {
    return this.started && this.subscription !== undefined && !this.live;
  }

  /** Products held, over all merchants. */
  get size(): number {
    let n = 0;
    for (const merchant of this.merchants.values()) n += merchant.size;
    return n;
  }

  /**
   * Starts hearing changes (when `listen` is given), then loads every merchant; live once
   * both are done. Without `listen` the model only loads (and serves nothing: it could not
   * know of other processes' writes), e.g. for `catalog reindex` in the CLI.
   */
  async start(listen: Listen | undefined, sink?: ReadModelSink): Promise<LoadStats> {
    this.started = true;
    this.sink = sink;
    if (listen && !this.subscription) {
      this.subscription = await listen(CATALOG_CHANNEL, {
        onNotify: (payload) => {
          const change = decodeChange(payload);
          if (!change || change.source === this.source) return;
          // An import or reindex elsewhere: that merchant is read from the database from the moment it is
          // heard until it is applied here, so that what the importer's caller saw committed is what we serve.
          // (Stock changes elsewhere need not wait: another process's writes show within a second.)
          const held = change.kind !== 'stock';
          if (held) this.pending.set(change.merchantId, (this.pending.get(change.merchantId) ?? 0) + 1);
          void this.apply(change).finally(() => {
            if (!held) return;
            const left = (this.pending.get(change.merchantId) ?? 1) - 1;
            if (left > 0) this.pending.set(change.merchantId, left);
            else this.pending.delete(change.merchantId);
          });
        },
        onLost: (error) => {
          this.listening = false;
          this.takeOutOfService();
          this.logger.warn({ err: error }, 'catalog change listener lost its connection; catalog reads go to the database until it is back');
        },
        // Anything may have changed meanwhile: everything is loaded again before memory answers.
        onRestored: () => {
          this.listening = true;
          this.heal();
        },
      });
      this.listening = true;
    }
    return this.loadAll();
  }

  /** Reads go to the database from now on, and no load begun before this may declare the model live. */
  private takeOutOfService(): void {
    this.epoch++;
    this.live = false;
  }

  /**
   * Loads everything again until a load succeeds while changes are heard, retrying with backoff:
   * one reload at a time, however many failures ask for one. While the listener is down it waits
   * for onRestored, which asks again.
   */
  private heal(): void {
    if (this.healing || this.closed) return;
    this.healing = retryUntil(
      () => !this.closed && this.listening && !this.live,
      async (attempt) => {
        await this.loadAll(); // live after it, or a loss happened meanwhile: load again at once
        if (this.live) this.logger.info({ attempts: attempt + 1 }, 'catalog read model reloaded; reads are answered from memory again');
      },
      (error, attempt, retryInMs) => {
        // Every failure of the first few, then one in ten: a long outage does not flood the log.
        if (attempt < 5 || attempt % 10 === 0) this.logger.error({ err: error, attempt: attempt + 1, retryInMs }, 'catalog reload failed; retrying');
      },
    ).finally(() => (this.healing = undefined));
  }

  /** Loads every merchant with products; declares the model live when changes are heard and no loss happened meanwhile. */
  private async loadAll(): Promise<LoadStats> {
    const started = performance.now();
    const epoch = this.epoch;
    // (Merchants are only ever added: a catalog's products are upserted, never deleted; one whose load finds none is dropped.)
    const merchants = await this.store.merchantsWithProducts();
    let products = 0;
    for (const merchantId of merchants) products += await this.loadMerchant(merchantId);
    if (this.listening && epoch === this.epoch) this.live = true;
    const stats = { merchants: merchants.length, products, ms: Math.round(performance.now() - started) };
    this.logger.info(stats, 'catalog read model loaded');
    return stats;
  }

  /** Runs `work` after every earlier change of the same merchant, so that changes apply in the order heard. */
  private serial<T>(merchantId: string, work: () => Promise<T>): Promise<T> {
    return this.queues.run(merchantId, work);
  }

  /**
   * A merchant's products, read batch by batch into its catalog and the search index: no batch's
   * products outlive it (each is held as text, see MerchantCatalog), so a large catalog is never
   * held whole as objects.
   */
  private loadMerchant(merchantId: string): Promise<number> {
    return this.serial(merchantId, async () => {
      // Read before the rows: a change while they are read makes the snapshot written after stale, never wrong.
      const version = this.kept && (await this.store.catalogVersion(merchantId));
      if (version && this.sink) {
        const restored = await this.kept!.restore(merchantId, version, this.sink);
        if (restored) {
          this.merchants.set(merchantId, restored);
          return restored.size;
        }
      }
      const catalog = MerchantCatalog.loader();
      const index = this.sink?.load(merchantId);
      // Each product's stock key, for a snapshot (made while the products are at hand as objects).
      const stock: string[] | undefined = version ? [] : undefined;
      let count = 0;
      try {
        for await (const rows of this.store.catalogRows(merchantId)) {
          catalog.add(rows.map((row) => row.product));
          if (stock) for (const row of rows) stock.push(stockKey(row.product));
          await index?.add(rows);
          count += rows.length;
        }
      } catch (error) {
        index?.abandon(error);
        throw error;
      }
      // Each step after the last batch takes seconds at a million products: other work (a request, a
      // connection the pool is making) runs between them.
      await nextTurn();
      const merchant = catalog.build();
      if (count) this.merchants.set(merchantId, merchant);
      else this.merchants.delete(merchantId);
      await nextTurn();
      await index?.finish(count ? merchant.columns() : undefined);
      if (version && stock && this.sink && count >= this.kept!.minProducts) {
        await nextTurn();
        await this.kept!.persist(merchantId, version, merchant, this.sink, stock);
      }
      return count;
    });
  }

  /**
   * A committed change (this process's, or heard through NOTIFY): the named products are read
   * again (a whole merchant when none are named). A failure takes the model out of service
   * until everything is loaded again, rather than serve what may be stale.
   */
  async apply(change: CatalogChange): Promise<void> {
    if (!this.started) return;
    const { merchantId, ids } = change;
    try {
      if (ids === undefined) {
        await this.loadMerchant(merchantId);
        return;
      }
      await this.serial(merchantId, async () => {
        // A stock change to products held: only their stock is read and applied (restock.ts).
        const held = this.merchants.get(merchantId);
        const restocked = change.kind === 'stock' && held ? await restockHeld((some) => this.store.stockById(merchantId, some), held, ids) : [];
        const whole = restocked.length ? ids.filter((id) => !restocked.includes(id)) : ids;
        if (whole.length === 0) return;
        const rows = await this.store.catalogRowsById(merchantId, whole);
        const found = new Set(rows.map((row) => row.product.id));
        const gone = whole.filter((id) => !found.has(id));
        let merchant = this.merchants.get(merchantId);
        const isNew = !merchant;
        if (!merchant && rows.length) this.merchants.set(merchantId, (merchant = new MerchantCatalog()));
        merchant?.upsert(rows.map((row) => row.product));
        merchant?.remove(gone);
        if (merchant?.size === 0) this.merchants.delete(merchantId);
        // Stock is not searched: only a change of the products themselves reaches the index. A merchant
        // new to a complete model has no other products: these rows are all of it.
        if (change.kind === 'stock') return;
        if (isNew && this.live && this.sink) {
          const index = this.sink.load(merchantId);
          await index.add(rows);
          await index.finish(merchant?.columns());
        } else await this.sink?.upsert(merchantId, rows, gone);
      });
    } catch (error) {
      this.logger.error({ err: error, merchantId }, 'catalog read model update failed; reads go to the database until it is reloaded');
      this.takeOutOfService();
      this.heal();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    this.unsubscribe();
    this.live = false;
    await this.subscription?.close();
    this.subscription = undefined;
    this.merchants.clear();
    await this.kept?.written();
  }
}
