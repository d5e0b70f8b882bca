import type { RequestHandler } from 'express';
import { DEFAULT_OPS_RATE_LIMIT } from '../config/config.js';
import type { Database } from '../db/database.js';
import { createMetrics, type Metrics } from '../http/metrics.js';
import { OpsStore } from './ops-store.js';
import { Readiness } from './readiness.js';
import { opsRoutes } from './routes.js';

export interface OpsDeps {
  /** The app's instruments (default: a fresh registry for this app). */
  metrics?: Metrics;
  /** The database /readyz probes and the outbox gauges read (default: none, reported as `not_configured`). */
  database?: Database;
  /** The search engine's readiness (default: ready). */
  searchReady?: () => boolean | Promise<boolean>;
  /** How many products lack a search vector: search is `degraded` (still ready) while any do. */
  missingVectors?: () => Promise<number>;
  /** Whether catalog reads are served from the read model (false: degraded, reading from the database); default: they are. */
  catalogLive?: () => boolean;
  /** Requests to /readyz and /metrics per client address and minute (default 300; 0: no limit). */
  perMinute?: number;
  /** When set, /metrics needs `Authorization: Bearer <metricsToken>` (METRICS_TOKEN). */
  metricsToken?: string | undefined;
  /** Bound on each readiness probe (default 2 s). */
  probeTimeoutMs?: number;
  /** The clock that ages /readyz's shared answer (see Readiness; default performance.now). */
  readinessClock?: () => number;
}

/** The operations endpoints of one app and the metrics they expose. */
export function opsEndpoints(deps: OpsDeps = {}): { metrics: Metrics; routes: RequestHandler } {
  const metrics = deps.metrics ?? createMetrics();
  const store = deps.database ? new OpsStore(deps.database) : undefined;
  if (store) metrics.setOutboxProbe(() => store.outboxLag());
  const { catalogLive } = deps;
  if (catalogLive) metrics.setCatalogProbe(() => !catalogLive());
  const readiness = new Readiness({ store, searchReady: deps.searchReady, missingVectors: deps.missingVectors, catalogLive, timeoutMs: deps.probeTimeoutMs, now: deps.readinessClock });
  return { metrics, routes: opsRoutes({ metrics, readiness, perMinute: deps.perMinute ?? DEFAULT_OPS_RATE_LIMIT, metricsToken: deps.metricsToken }) };
}
