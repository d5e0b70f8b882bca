/**
 * The read model's persisted catalog snapshots (catalog/read-model/catalog-snapshots.ts): a merchant starts from its
 * snapshot when one was made at its catalog version, restocked where the database's stock differs,
 * and a merchant loaded from the database is written to one in the background.
 */
import type { Logger } from 'pino';
import type { CatalogStore } from '../catalog-store.js';
import { nextTurn } from '../../kernel/concurrency/next-turn.js';
import type { CatalogSnapshots, MerchantSnapshot } from './catalog-snapshots.js';
import { MerchantCatalog } from './merchant-catalog.js';
import type { ReadModelSink } from './read-model-sink.js';
import { restockHeld } from './restock.js';
import { changedStock } from './stock-key.js';

export class KeptSnapshots {
  /** Snapshots being written, one after another. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly snapshots: CatalogSnapshots,
    private readonly store: CatalogStore,
    private readonly logger: Logger,
  ) {}

  /** Merchants with fewer products are not worth a snapshot. */
  get minProducts(): number {
    return this.snapshots.minProducts;
  }

  /** Writes the merchant's snapshot in the background (a failure is only logged: the next start loads from the database). */
  async persist(merchantId: string, version: string, merchant: MerchantCatalog, sink: ReadModelSink, stock: readonly string[]): Promise<void> {
    // Both states inside the merchant's serial work (no change of it comes between them; other work runs between
    // the two, a second or more each at a million products), written later.
    const index = sink.state(merchantId);
    if (!index) return;
    await nextTurn();
    const catalog = merchant.state();
    this.writing = this.writing
      .then(() => this.snapshots.write(merchantId, version, sink.embedder, catalog, index, stock))
      .catch((error: unknown) => this.logger.warn({ err: error, merchantId }, 'catalog snapshot could not be written; the next start loads from the database'));
  }

  /**
   * The merchant from its persisted snapshot when one was made at `version` (undefined: none, or
   * stale), with the stock the database holds now; the search index (`sink`) holds it too.
   */
  async restore(merchantId: string, version: string, sink: ReadModelSink): Promise<MerchantCatalog | undefined> {
    let snapshot: MerchantSnapshot | undefined;
    try {
      snapshot = await this.snapshots.read(merchantId, version, sink.embedder);
    } catch (error) {
      this.logger.warn({ err: error, merchantId }, 'catalog snapshot could not be read; loading the catalog from the database');
    }
    if (!snapshot) return undefined;
    const merchant = MerchantCatalog.restore(snapshot.catalog);
    if (!(await this.restockChanged(merchantId, merchant, snapshot))) {
      this.logger.warn({ merchantId }, 'catalog snapshot holds other products than the database at its version; loading the catalog from the database');
      return undefined;
    }
    if (!(await sink.restore(merchantId, snapshot.index, merchant.columns()))) return undefined;
    this.logger.info({ merchantId, products: merchant.size }, 'catalog loaded from its snapshot');
    return merchant;
  }

  /**
   * Restocks the products whose stock in the database differs from the snapshot's (stock-key.ts).
   * False when the database holds other products than the snapshot (it cannot be used).
   */
  private async restockChanged(merchantId: string, merchant: MerchantCatalog, snapshot: MerchantSnapshot): Promise<boolean> {
    const changed = changedStock(await this.store.stockLists(merchantId), snapshot.catalog.columns.ids, snapshot.stock);
    if (!changed) return false;
    if ((await restockHeld((ids) => this.store.stockById(merchantId, ids), merchant, changed)).length !== changed.length) return false;
    if (changed.length) this.logger.info({ merchantId, restocked: changed.length }, 'catalog snapshot: stock changed since it was made');
    return true;
  }

  /** Every snapshot asked for so far is written (or failed). */
  written(): Promise<void> {
    return this.writing;
  }
}
