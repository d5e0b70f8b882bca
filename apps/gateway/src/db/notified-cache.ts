/**
 * Values read from the database, held in memory while every change to them is heard: the one way
 * a cache here is kept current. An entry is loaded on first use (or at once: `refresh`) and
 * dropped when a NOTIFY on the cache's channel names its key — any process's change, this
 * process's too (an empty payload drops them all). While changes are not heard — before `listen`,
 * while its connection is down — nothing is held: `get` reads through the loader (correct, one read
 * per use) and `cached` answers nothing; a loss drops everything, since changes were missed.
 *
 * Concurrent uses of a key share one load; a change heard while a load runs drops it, so what it
 * read (perhaps from before the change) is never kept. A failed load is not kept either; with
 * `retryAfterFailureMs` the key is not loaded again through `cached` until that long after.
 * `eager`: what a change or a restored connection drops is loaded again at once, not at next use
 * (for a cache of everything, e.g. the API keys: its readers then wait for the reload, never
 * read past it); and at most one load of a key runs — the reloads asked for while it runs share
 * one that starts when it ends, so a burst of changes costs two loads, not one each.
 *
 *   const profiles = new NotifiedCache({ channel: 'shipping_profiles_changed', load: (merchantId) => store.find(merchantId) });
 *   await profiles.listen(db); const profile = await profiles.get('shop');
 */
import type { Database } from './database.js';
import type { Subscription } from './pg-listener.js';

export interface NotifiedCacheOptions<V> {
  /** The channel whose NOTIFY payload is the key that changed (empty: every key). */
  channel: string;
  load: (key: string) => Promise<V>;
  /** Load what a change or a restored connection dropped again at once (default: at its next use). */
  eager?: boolean;
  /** After a failed load, `cached` answers nothing for this long rather than load again (default 0). */
  retryAfterFailureMs?: number;
  onLoadFailed?: (error: unknown, key: string) => void;
}

export class NotifiedCache<V> {
  /** Held entries: loaded, or being loaded. */
  private readonly entries = new Map<string, Promise<V>>();
  /** The values of the held entries whose load is done. */
  private readonly values = new Map<string, V>();
  /** Keys whose last load succeeded and were not dropped by a loss or a failure since. */
  private readonly loaded = new Set<string>();
  /** Keys an eager cache loads again after a drop. */
  private readonly kept = new Set<string>();
  private readonly failedAt = new Map<string, number>();
  /** Eager: the load of each key that runs, and the one queued after it. */
  private readonly flights = new Map<string, { done: Promise<void>; next?: Promise<V> }>();
  /** Loads whose outcome is already being watched (a queued reload may be held, dropped and held again). */
  private readonly watched = new WeakSet<Promise<V>>();
  private heard = false;
  private subscription: Subscription | undefined;

  constructor(private readonly options: NotifiedCacheOptions<V>) {}

  /** Whether every change is heard now (listening, its connection up). */
  get listening(): boolean {
    return this.heard;
  }

  /** The key's value: from memory while changes are heard (loaded at first use), else read through. */
  get(key: string): Promise<V> {
    return this.cached(key) ?? this.options.load(key);
  }

  /**
   * The key's value from memory — loaded first when not held — while changes are heard; undefined
   * when the cache does not answer now (changes not heard, or its last load failed less than
   * `retryAfterFailureMs` ago): the caller reads the database its own way.
   */
  cached(key: string): Promise<V> | undefined {
    if (!this.heard) return undefined;
    const entry = this.entries.get(key);
    if (entry) return entry;
    const failed = this.failedAt.get(key);
    if (failed !== undefined && performance.now() - failed < (this.options.retryAfterFailureMs ?? 0)) return undefined;
    return this.load(key);
  }

  /** The key's value when it is held and its load done (none under way), at once; else undefined. Never loads. */
  peek(key: string): V | undefined {
    return this.heard ? this.values.get(key) : undefined;
  }

  /** Whether the key is answered from memory: changes heard, and its last load succeeded with nothing lost since (a reload may be under way). */
  answers(key: string): boolean {
    return this.heard && this.loaded.has(key) && this.entries.has(key);
  }

  /** The key's data changed (or every key's, when none is named): read it again — at once when eager, else at next use. */
  forget(key?: string): void {
    const dropped = key === undefined ? [...this.entries.keys()] : [key];
    if (key === undefined) {
      this.entries.clear();
      this.values.clear();
    } else {
      this.entries.delete(key);
      this.values.delete(key);
    }
    if (this.options.eager && this.heard) for (const k of key === undefined ? this.kept : dropped) this.reload(k);
  }

  /** Loads the key again now; resolves once its entry is current (rejects when the load fails). Held only while changes are heard. */
  refresh(key: string): Promise<V> {
    return this.heard ? this.load(key) : this.options.load(key);
  }

  /**
   * Whether every change is heard from now on (what `listen` tells it; a cache driven without a
   * database is told directly). Not heard: everything is dropped, and nothing a load begun before
   * counts. Heard again: an eager cache is not reloaded by this alone (a restored connection is).
   */
  setHeard(heard: boolean): void {
    if (!heard) {
      this.heard = false;
      this.entries.clear();
      this.values.clear();
      this.loaded.clear();
      return;
    }
    if (!this.heard) {
      this.entries.clear();
      this.values.clear();
    }
    this.heard = true;
  }

  /** Starts holding values while changes to them are heard. */
  async listen(db: Pick<Database, 'listen'>): Promise<void> {
    if (this.subscription) return;
    this.subscription = await db.listen(this.options.channel, {
      onNotify: (key) => this.forget(key || undefined),
      onLost: () => this.setHeard(false),
      onRestored: () => {
        this.setHeard(true);
        if (this.options.eager) for (const key of this.kept) this.reload(key);
      },
    });
    this.setHeard(true);
  }

  async close(): Promise<void> {
    this.setHeard(false);
    await this.subscription?.close();
    this.subscription = undefined;
  }

  /** A background reload: its failure is the loader's to report (onLoadFailed). */
  private reload(key: string): void {
    this.load(key).catch(() => {});
  }

  /** Eager: starts the key's load, or — while one runs — the one after it, shared. */
  private run(key: string): Promise<V> {
    const flight = this.flights.get(key);
    if (flight) return (flight.next ??= flight.done.then(() => this.begin(key)));
    return this.begin(key);
  }

  private begin(key: string): Promise<V> {
    const loading = this.options.load(key);
    const ended = () => void (this.flights.get(key) === flight && this.flights.delete(key));
    const flight: { done: Promise<void>; next?: Promise<V> } = { done: loading.then(ended, ended) };
    this.flights.set(key, flight);
    return loading;
  }

  private load(key: string): Promise<V> {
    const loading = this.options.eager ? this.run(key) : this.options.load(key);
    this.entries.set(key, loading);
    this.values.delete(key);
    if (this.options.eager) this.kept.add(key);
    if (this.watched.has(loading)) return loading;
    this.watched.add(loading);
    loading.then(
      (value) => {
        if (this.entries.get(key) !== loading) return; // dropped meanwhile: a change or a loss was heard
        this.values.set(key, value);
        this.loaded.add(key);
        this.failedAt.delete(key);
      },
      (error: unknown) => {
        if (this.entries.get(key) === loading) {
          this.entries.delete(key);
          this.loaded.delete(key);
          this.failedAt.set(key, performance.now());
        }
        this.options.onLoadFailed?.(error, key);
      },
    );
    return loading;
  }
}
