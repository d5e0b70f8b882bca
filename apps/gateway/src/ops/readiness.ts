/**
 * `/readyz`: may this process take traffic? The database answers, its schema
 * has the newest committed migration, and the search index is ready. Every
 * probe is time-bound, so the answer comes within `timeoutMs` whatever hangs.
 * Answers name each check's state in one word — never an error message, host
 * or query. Search is `degraded`, and the process still ready, while some products
 * have no vector (the embedder failed): keyword search finds them all, so traffic is
 * served; `details.search` says how many (`catalog reindex` fills them in).
 *
 *   const readiness = new Readiness({ store: new OpsStore(db.prisma), searchReady: () => search.ready });
 *   const { ready, checks } = await readiness.check(); // checks: { database: 'ok', migrations: 'ok', search: 'ok' }
 */
import type { OpsStore } from './ops-store.js';
import { TimeoutError, withTimeout } from './with-timeout.js';

export type CheckState = 'ok' | 'degraded' | 'unreachable' | 'timeout' | 'pending' | 'not_ready' | 'not_configured';

export interface ReadinessReport {
  ready: boolean;
  checks: { database: CheckState; migrations: CheckState; search: CheckState };
  /** What a degraded check lacks, in a short phrase: `{ search: '12 products without vectors' }`. */
  details?: { search?: string };
}

export interface ReadinessOptions {
  /** Database probes; without one the database checks say `not_configured` and count as ready. */
  store?: Pick<OpsStore, 'ping' | 'migrationsApplied'> | undefined;
  /** The search engine's readiness (e.g. its index is built); default: ready. */
  searchReady?: (() => boolean | Promise<boolean>) | undefined;
  /** How many products lack a search vector (0: none); more than 0 makes search `degraded`. */
  missingVectors?: (() => Promise<number>) | undefined;
  /** Bound on each probe. */
  timeoutMs?: number;
}

const failed = (error: unknown): CheckState => (error instanceof TimeoutError ? 'timeout' : 'unreachable');

export class Readiness {
  private readonly timeoutMs: number;

  constructor(private readonly options: ReadinessOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 2_000;
  }

  async check(): Promise<ReadinessReport> {
    const { store, searchReady, missingVectors } = this.options;
    const bounded = <T>(probe: () => Promise<T> | T) => withTimeout(Promise.resolve().then(probe), this.timeoutMs);
    const [database, migrations, searchState, missing] = await Promise.all([
      store ? bounded(() => store.ping()).then((): CheckState => 'ok', failed) : ('not_configured' as const),
      store ? bounded(() => store.migrationsApplied()).then((applied): CheckState => (applied ? 'ok' : 'pending'), failed) : ('not_configured' as const),
      searchReady ? bounded(searchReady).then((ready): CheckState => (ready ? 'ok' : 'not_ready'), failed) : ('ok' as const),
      // Unknown (the database check says why) rather than a failure of its own.
      missingVectors ? bounded(missingVectors).catch(() => 0) : 0,
    ]);
    const search: CheckState = searchState === 'ok' && missing > 0 ? 'degraded' : searchState;
    const checks = { database, migrations, search };
    const ready = Object.values(checks).every((state) => state === 'ok' || state === 'degraded' || state === 'not_configured');
    return { ready, checks, ...(search === 'degraded' ? { details: { search: `${missing} product${missing === 1 ? '' : 's'} without vectors` } } : {}) };
  }
}
