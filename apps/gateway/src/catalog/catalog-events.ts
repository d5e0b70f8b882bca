/**
 * In-process news of committed catalog changes. The importer announces each committed
 * import here (and, for other processes, with NOTIFY catalog_changed); the search index of
 * the same database listens. Keyed by the Prisma client, so two gateways in one process
 * (tests) never hear each other.
 */
import { randomBytes } from 'node:crypto';

export interface CatalogChange {
  merchantId: string;
  /** The products written; undefined = too many to name, reload the merchant. */
  ids: string[] | undefined;
}

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

/** A random name for this database client, carried in NOTIFY payloads so a process can skip its own news. */
export function changeSource(database: object): string {
  let source = sources.get(database);
  if (!source) sources.set(database, (source = randomBytes(6).toString('hex')));
  return source;
}

/** The NOTIFY payload: `<source> <merchantId>`. */
export function encodeChange(source: string, merchantId: string): string {
  return `${source} ${merchantId}`;
}

export function decodeChange(payload: string): { source: string; merchantId: string } | undefined {
  const space = payload.indexOf(' ');
  if (space <= 0) return undefined;
  return { source: payload.slice(0, space), merchantId: payload.slice(space + 1) };
}
