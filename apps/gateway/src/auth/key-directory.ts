/**
 * Every API key of this gateway, by hash, in memory: an authentication is answered without
 * a database read, whether the key is valid, revoked or unknown — so a flood of random keys
 * costs no query, and a valid key never waits behind anyone else's failures. Keys are few
 * (one per integration), so all of them are held: one entry of a NotifiedCache
 * (db/notified-cache.ts), loaded whole.
 *
 * The directory answers only while it hears every change to keys: the database sends NOTIFY
 * api_keys_changed when a transaction that changed a key or its merchants commits (rules on
 * the tables: the CLI, SQL and deletions all count), and each notification loads the keys
 * again at once (the cache is eager). A lookup made while such a load runs waits for it, so a
 * key created or revoked anywhere counts from the first request after its NOTIFY is heard.
 * Until the first load is done and the LISTEN is in place, whenever its connection is lost, and
 * for a second after a failed load (then loaded again by the next lookup or change), it does not
 * answer (`lookup` says `unavailable`) and the caller reads the database.
 *
 *   const directory = new KeyDirectory(() => store.all());
 *   await directory.listen(db); // or, driven directly: directory.setListening(true); await directory.refresh();
 *   const entry = await directory.lookup(hashApiKey(presented)); // Principal | 'revoked' | 'unknown' | 'unavailable'
 */
import type { Database } from '../db/database.js';
import { NotifiedCache } from '../db/notified-cache.js';
import type { Principal } from './principal.js';

export const API_KEYS_CHANNEL = 'api_keys_changed';

/** A key as loaded: its hash, whether it is revoked, and who it acts as. */
export interface DirectoryEntry {
  keyHash: string;
  revoked: boolean;
  principal: Principal;
}

export type Lookup = Principal | 'revoked' | 'unknown' | 'unavailable';

type Keys = Map<string, Principal | 'revoked'>;

/** The cache's one entry: every key. */
const ALL = '';
const RETRY_AFTER_FAILURE_MS = 1_000;

export class KeyDirectory {
  private readonly keys: NotifiedCache<Keys>;
  private subscribed = false;

  constructor(load: () => Promise<DirectoryEntry[]>, onLoadFailed: (error: unknown) => void = () => {}) {
    this.keys = new NotifiedCache<Keys>({
      channel: API_KEYS_CHANNEL,
      load: async () => new Map((await load()).map((entry) => [entry.keyHash, entry.revoked ? 'revoked' : entry.principal])),
      eager: true,
      retryAfterFailureMs: RETRY_AFTER_FAILURE_MS,
      onLoadFailed: (error) => onLoadFailed(error),
    });
  }

  /** Whether every change to keys is heard now (listening, its connection up). */
  get listening(): boolean {
    return this.keys.listening;
  }

  /** Whether lookups are answered from memory now. */
  get answering(): boolean {
    return this.keys.answers(ALL);
  }

  /** The principal of a valid key, when the directory answers and no load is under way; else undefined. */
  known(keyHash: string): Principal | undefined {
    const entry = this.keys.peek(ALL)?.get(keyHash);
    return entry === 'revoked' ? undefined : entry;
  }

  /** What the key is, from memory (after any load under way); `unavailable`: read the database. */
  async lookup(keyHash: string): Promise<Lookup> {
    const loading = this.keys.cached(ALL);
    if (!loading) return 'unavailable';
    const keys = await loading.catch(() => undefined);
    if (!keys || !this.keys.listening) return 'unavailable';
    return keys.get(keyHash) ?? 'unknown';
  }

  /** Keys changed (or may have): load them again; lookups wait for it. */
  changed(): void {
    this.keys.forget(ALL);
  }

  /** Loads every key again; resolves once the directory is current (rejects when the load fails). */
  async refresh(): Promise<void> {
    await this.keys.refresh(ALL);
  }

  /** Whether every change is heard now; after a loss nothing is answered until heard again and reloaded. */
  setListening(listening: boolean): void {
    this.keys.setHeard(listening);
  }

  /** Hears every change to keys on the database and loads them all; resolves once the directory answers (rejects when the load fails). */
  async listen(db: Pick<Database, 'listen'>): Promise<void> {
    if (this.subscribed) return;
    await this.keys.listen(db);
    this.subscribed = true;
    await this.refresh();
  }

  async close(): Promise<void> {
    this.subscribed = false;
    await this.keys.close();
  }
}
