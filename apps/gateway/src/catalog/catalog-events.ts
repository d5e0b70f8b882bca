/**
 * In-process news of committed catalog changes. The importer announces each committed
 * import here (and, for other processes, with NOTIFY catalog_changed); the search index of
 * the same database listens. Keyed by the Database object (db/database.ts) the change was
 * made through — not by a client inside it — so two gateways in one process (tests) never
 * hear each other.
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

const listeners = new WeakMap<object, Set<Listener>>();
const sources = new WeakMap<object, string>();

export function onCatalogChange(database: object, listener: Listener): () => void {
  let set = listeners.get(database);
  if (!set) listeners.set(database, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Runs every listener of this database (they handle their own errors). */
export async function catalogChanged(database: object, change: CatalogChange): Promise<void> {
  await Promise.all([...(listeners.get(database) ?? [])].map((listener) => listener(change)));
}

/** A random name for this Database object, carried in NOTIFY payloads so a process can skip its own news. */
export function changeSource(database: object): string {
  let source = sources.get(database);
  if (!source) sources.set(database, (source = randomBytes(6).toString('hex')));
  return source;
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
