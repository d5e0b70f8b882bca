/**
 * News of committed catalog changes. A writer (the importer, a checkout's completion) announces
 * each committed change to this process's bus — heard before the writer's caller answers (the
 * read model, the search index) — and, for other processes, with NOTIFY catalog_changed in its
 * transaction. One bus per Database (catalogEvents(db)): two gateways in one process (tests)
 * never hear each other, and a process skips its own NOTIFYs by the bus's `source`.
 */
import { randomBytes } from 'node:crypto';

export interface CatalogChange {
  merchantId: string;
  /** The products written; undefined = too many to name, reload the merchant. */
  ids: string[] | undefined;
  /** `stock`: only the inventory of the named products changed (a completion); searchable fields did not. */
  kind?: 'products' | 'stock' | undefined;
}

export const CATALOG_CHANNEL = 'catalog_changed';

type Listener = (change: CatalogChange) => Promise<void>;

export class CatalogEvents {
  /** A random name carried in this bus's NOTIFY payloads, so that its process can skip its own news. */
  readonly source = randomBytes(6).toString('hex');
  private readonly listeners = new Set<Listener>();

  /** Hears every change announced on this bus; returns the unsubscribe. */
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs every listener (they handle their own errors). */
  async changed(change: CatalogChange): Promise<void> {
    await Promise.all([...this.listeners].map((listener) => listener(change)));
  }

  /** The NOTIFY payload that tells other processes of the change. */
  notice(change: CatalogChange): string {
    return encodeChange(this.source, change);
  }
}

const buses = new WeakMap<object, CatalogEvents>();

/** The bus of the changes made through this Database (db/database.ts), made on first use. */
export function catalogEvents(database: object): CatalogEvents {
  let bus = buses.get(database);
  if (!bus) buses.set(database, (bus = new CatalogEvents()));
  return bus;
}

/** NOTIFY payloads stay well under PostgreSQL's 8,000-byte limit: longer lists of ids become "the whole merchant". */
const PAYLOAD_LIMIT = 7_000;

/** The NOTIFY payload: `{"source","merchantId","ids"?,"kind"?}` (ids left out when too many to name). */
export function encodeChange(source: string, change: CatalogChange): string {
  const named = JSON.stringify({ source, merchantId: change.merchantId, ids: change.ids, kind: change.kind });
  if (change.ids === undefined || Buffer.byteLength(named) <= PAYLOAD_LIMIT) return named;
  return JSON.stringify({ source, merchantId: change.merchantId, kind: change.kind });
}

export function decodeChange(payload: string): (CatalogChange & { source: string }) | undefined {
  try {
    const value = JSON.parse(payload) as { source?: unknown; merchantId?: unknown; ids?: unknown; kind?: unknown };
    if (typeof value.source !== 'string' || typeof value.merchantId !== 'string') return undefined;
    const ids = Array.isArray(value.ids) && value.ids.every((id) => typeof id === 'string') ? (value.ids as string[]) : undefined;
    return { source: value.source, merchantId: value.merchantId, ids, kind: value.kind === 'stock' && ids ? 'stock' : 'products' };
  } catch {
    return undefined;
  }
}
