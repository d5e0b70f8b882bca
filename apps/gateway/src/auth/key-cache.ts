/**
 * Authenticated keys, remembered for a minute so that a request does not wait on the
 * database for its key. Entries are trusted only while the cache hears every change to
 * keys: the database sends NOTIFY api_keys_changed when a transaction that changed a key
 * or its merchants commits (rules on the tables, so the CLI, SQL and deletions all count), and every
 * notification empties the cache. Until the LISTEN is in place, and whenever its
 * connection is lost, the cache holds nothing and every request reads the database.
 *
 * Keys that are not valid (no such key, revoked) are remembered too, for a few seconds
 * (`refusalTtlMs`), so that a client repeating a bad key costs no database read each time.
 * A created key makes the database notify as well (an INSERT rule), so a refusal never hides
 * a key created later for longer than that TTL — and, while changes are heard, not at all.
 */
import type { Principal } from './key-service.js';

export const API_KEYS_CHANNEL = 'api_keys_changed';

export interface KeyCacheOptions {
  /** How long an entry is trusted even without news (default 60 s): a bound, should a notification ever be missed. */
  ttlMs?: number;
  /** At most this many keys (default 10,000); the oldest entry goes first. */
  maxEntries?: number;
  /** How long a refused key is remembered (default 10 s), whether or not changes are heard. */
  refusalTtlMs?: number;
  /** At most this many refused keys (default 10,000); the oldest entry goes first. */
  maxRefusals?: number;
  now?: () => number;
}

export class KeyCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();
  private readonly refusals = new Map<string, { reason: string; expiresAt: number }>();
  private listening = false;
  /** Bumped by every clear, so that a read begun before a change cannot store what it read. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly refusalTtlMs: number;
  private readonly maxRefusals: number;
  private readonly now: () => number;

  constructor({ ttlMs = 60_000, maxEntries = 10_000, refusalTtlMs = 10_000, maxRefusals = 10_000, now = Date.now }: KeyCacheOptions = {}) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.refusalTtlMs = refusalTtlMs;
    this.maxRefusals = maxRefusals;
    this.now = now;
  }

  /** Why a key was refused a moment ago (its message), if it was. */
  refusal(keyHash: string): string | undefined {
    const entry = this.refusals.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.reason;
    this.refusals.delete(keyHash);
    return undefined;
  }

  /** Remembers a refused key for refusalTtlMs, unless keys changed since mark(). */
  refuse(keyHash: string, reason: string, mark: number): void {
    if (mark !== this.generation || this.refusalTtlMs <= 0) return;
    this.refusals.delete(keyHash);
    if (this.refusals.size >= this.maxRefusals) this.refusals.delete(this.refusals.keys().next().value!);
    this.refusals.set(keyHash, { reason, expiresAt: this.now() + this.refusalTtlMs });
  }

  get(keyHash: string): Principal | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.principal;
    this.entries.delete(keyHash);
    return undefined;
  }

  /** Where a database read begins: pass it to set() with what the read found. */
  mark(): number {
    return this.generation;
  }

  /** Stores a key read from the database, unless keys changed since mark() or the cache is not listening. */
  set(keyHash: string, principal: Principal, mark: number): void {
    if (!this.listening || mark !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyHash, { principal, expiresAt: this.now() + this.ttlMs });
  }

  /** Keys changed (or may have): forget them all, valid and refused. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.refusals.clear();
  }

  /** Whether every change is heard now; entries are kept only while it is. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.clear();
  }

  /** True while entries are kept (changes are being heard). */
  get active(): boolean {
    return this.listening;
  }
}
