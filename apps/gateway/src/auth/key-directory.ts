/**
 * Every API key of this gateway, by hash, in memory: an authentication is answered without
 * a database read, whether the key is valid, revoked or unknown — so a flood of random keys
 * costs no query, and a valid key never waits behind anyone else's failures. Keys are few
 * (one per integration), so all of them are held.
 *
 * The directory answers only while it hears every change to keys: the database sends NOTIFY
 * api_keys_changed when a transaction that changed a key or its merchants commits (rules on
 * the tables: the CLI, SQL and deletions all count), and each notification loads the keys
 * again. A lookup made while such a load runs waits for it, so a key created or revoked
 * anywhere counts from the first request after its NOTIFY is heard. Until the first load is
 * done and the LISTEN is in place, whenever its connection is lost, and after a failed load
 * (retried on the next change or lookup, at most once a second), it does not answer
 * (`answering` false) and the caller reads the database.
 *
 *   const directory = new KeyDirectory(() => store.all());
 *   directory.setListening(true); await directory.refresh();
 *   const entry = await directory.lookup(hashApiKey(presented)); // Principal | 'revoked' | 'unknown' | 'unavailable'
 */
import type { Principal } from './principal.js';

export const API_KEYS_CHANNEL = 'api_keys_changed';

/** A key as loaded: its hash, whether it is revoked, and who it acts as. */
export interface DirectoryEntry {
  keyHash: string;
  revoked: boolean;
  principal: Principal;
}

export type Lookup = Principal | 'revoked' | 'unknown' | 'unavailable';

const RETRY_AFTER_FAILURE_MS = 1_000;

export class KeyDirectory {
  private entries = new Map<string, Principal | 'revoked'>();
  private listening = false;
  /** The last load succeeded and no loss happened since. */
  private loaded = false;
  /** A change was heard since the running load began: load again when it ends. */
  private stale = false;
  private loading: Promise<void> | undefined;
  private lastFailure = Number.NEGATIVE_INFINITY;
  /** Bumped by every lost connection, so that a load begun before a loss cannot count as complete. */
  private epoch = 0;

  constructor(
    private readonly load: () => Promise<DirectoryEntry[]>,
    private readonly onLoadFailed: (error: unknown) => void = () => {},
  ) {}

  /** Whether lookups are answered from memory now. */
  get answering(): boolean {
    return this.listening && this.loaded;
  }

  /** The principal of a valid key, when the directory answers and no load is under way; else undefined. */
  known(keyHash: string): Principal | undefined {
    if (!this.answering || this.loading) return undefined;
    const entry = this.entries.get(keyHash);
    return entry === 'revoked' ? undefined : entry;
  }

  /** What the key is, from memory (after any load under way); `unavailable`: read the database. */
  async lookup(keyHash: string): Promise<Lookup> {
    if (this.loading) await this.loading.catch(() => {});
    if (!this.answering) {
      if (this.listening && performance.now() - this.lastFailure >= RETRY_AFTER_FAILURE_MS) this.changed();
      return 'unavailable';
    }
    return this.entries.get(keyHash) ?? 'unknown';
  }

  /** Keys changed (or may have): load them again; lookups wait for it. */
  changed(): void {
    this.stale = true;
    void this.refresh().catch(() => {});
  }

  /** Loads every key (again, until no change was heard meanwhile); resolves once the directory is current. */
  refresh(): Promise<void> {
    this.stale = true;
    this.loading ??= (async () => {
      try {
        while (this.stale) {
          this.stale = false;
          const epoch = this.epoch;
          const entries = await this.load();
          this.entries = new Map(entries.map((entry) => [entry.keyHash, entry.revoked ? 'revoked' : entry.principal]));
          this.loaded = epoch === this.epoch;
        }
      } catch (error) {
        this.loaded = false;
        this.lastFailure = performance.now();
        this.onLoadFailed(error);
        throw error;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  /** Whether every change is heard now; after a loss nothing is answered until heard again and reloaded. */
  setListening(listening: boolean): void {
    this.listening = listening;
    if (!listening) {
      this.epoch++;
      this.loaded = false;
    }
  }
}
