/**
 * `/readyz`: may this process take traffic? The database answers, its schema
 * has the newest committed migration, and the search index is ready. Every
 * probe is time-bound, so the answer comes within `timeoutMs` whatever hangs.
 * Answers name each check's state in one word — never an error message, host
 * or query. Search is `degraded`, and the process still ready, while some products
 * have no vector (the embedder failed): keyword search finds them all, so traffic is
 * served; `details.search` says how many (`catalog reindex` fills them in). The catalog is
 * `degraded`, and the process still ready, while its read model is out of service and reads
 * go to the database (correct, dearer) until its reload succeeds.
 *
 * An answer is computed at most once per `maxAgeMs` (1 s): `/readyz` needs no key, so any
 * number of callers share one round of probes instead of each costing a few of its own.
 *
 *   const readiness = new Readiness({ store: new OpsStore(db), searchReady: () => search.ready });
 *   const { ready, checks } = await readiness.check(); // checks: { database: 'ok', migrations: 'ok', search: 'ok' }
 */
import type { OpsStore } from './ops-store.js';
import { TimeoutError, withTimeout } from '../kernel/concurrency/with-timeout.js';

export type CheckState = 'ok' | 'degraded' | 'unreachable' | 'timeout' | 'pending' | 'not_ready' | 'not_configured';

export interface ReadinessReport {
  ready: boolean;
  checks: { database: CheckState; migrations: CheckState; search: CheckState; catalog: CheckState };
  /** What a degraded check lacks, in a short phrase: `{ search: '12 products without vectors' }`. */
  details?: { search?: string; catalog?: string };
}

export interface ReadinessOptions {
  /** Database probes; without one the database checks say `not_configured` and count as ready. */
  store?: Pick<OpsStore, 'ping' | 'migrationsApplied'> | undefined;
  /** The search engine's readiness (e.g. its index is built); default: ready. */
  searchReady?: (() => boolean | Promise<boolean>) | undefined;
  /** How many products lack a search vector (0: none); more than 0 makes search `degraded`. */
  missingVectors?: (() => Promise<number>) | undefined;
  /** Whether the catalog's read model serves reads (false: degraded, reads go to the database); default: it does. */
  catalogLive?: (() => boolean) | undefined;
  /** Bound on each probe. */
  timeoutMs?: number;
  /** How long an answer is reused (default 1 s). */
  maxAgeMs?: number;
  /** Milliseconds on a monotonic clock, which ages the answer (default performance.now; a test moves its own). */
  now?: () => number;
}

const failed = (error: unknown): CheckState => (error instanceof TimeoutError ? 'timeout' : 'unreachable');

export class Readiness {
  private readonly timeoutMs: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private last: { report: Promise<ReadinessReport>; at: number } | undefined;

  constructor(private readonly options: ReadinessOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.maxAgeMs = options.maxAgeMs ?? 1_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** The answer of a round of probes begun at most `maxAgeMs` ago (or still running), else of a new one. */
  check(): Promise<ReadinessReport> {
    const now = this.now();
    if (this.last && now - this.last.at < this.maxAgeMs) return this.last.report;
    const report = this.probe();
    const entry = { report, at: Number.POSITIVE_INFINITY }; // shared while running, aged from when it ends
    this.last = entry;
    void report.finally(() => (entry.at = this.now()));
    return report;
  }

  private async probe(): Promise<ReadinessReport> {
    const { store, searchReady, missingVectors, catalogLive } = this.options;
    const bounded = <T>(probe: () => Promise<T> | T) => withTimeout(Promise.resolve().then(probe), this.timeoutMs);
    const [database, migrations, searchState, missing] = await Promise.all([
      store ? bounded(() => store.ping()).then((): CheckState => 'ok', failed) : ('not_configured' as const),
      store ? bounded(() => store.migrationsApplied()).then((applied): CheckState => (applied ? 'ok' : 'pending'), failed) : ('not_configured' as const),
      searchReady ? bounded(searchReady).then((ready): CheckState => (ready ? 'ok' : 'not_ready'), failed) : ('ok' as const),
      // Unknown (the database check says why) rather than a failure of its own.
      missingVectors ? bounded(missingVectors).catch(() => 0) : 0,
    ]);
    const search: CheckState = searchState === 'ok' && missing > 0 ? 'degraded' : searchState;
    const catalog: CheckState = !catalogLive || catalogLive() ? 'ok' : 'degraded';
    const checks = { database, migrations, search, catalog };
    const ready = Object.values(checks).every((state) => state === 'ok' || state === 'degraded' || state === 'not_configured');
    const details = {
      ...(search === 'degraded' ? { search: `${missing} product${missing === 1 ? '' : 's'} without vectors` } : {}),
      ...(catalog === 'degraded' ? { catalog: 'degraded (reading from the database)' } : {}),
    };
    return { ready, checks, ...(Object.keys(details).length ? { details } : {}) };
  }
}
