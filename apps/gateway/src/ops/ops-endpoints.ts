import type { RequestHandler } from 'express';
import type { Prisma } from '../db/database.js';
import { createMetrics, type Metrics } from './metrics.js';
import { OpsStore } from './ops-store.js';
import { Readiness } from './readiness.js';
import { opsRoutes } from './routes.js';

export interface OpsDeps {
  /** The app's instruments (default: a fresh registry for this app). */
  metrics?: Metrics;
  /** The database /readyz probes and the outbox gauges read (default: none, reported as `not_configured`). */
  database?: Prisma;
  /** The search engine's readiness (default: ready). */
  searchReady?: () => boolean | Promise<boolean>;
  /** How many products lack a search vector: search is `degraded` (still ready) while any do. */
  missingVectors?: () => Promise<number>;
  /** Bound on each readiness probe (default 2 s). */
  probeTimeoutMs?: number;
}

/** The operations endpoints of one app and the metrics they expose. */
export function opsEndpoints(deps: OpsDeps = {}): { metrics: Metrics; routes: RequestHandler } {
  const metrics = deps.metrics ?? createMetrics();
  const store = deps.database ? new OpsStore(deps.database) : undefined;
  if (store) metrics.setOutboxProbe(() => store.outboxLag());
  const readiness = new Readiness({ store, searchReady: deps.searchReady, missingVectors: deps.missingVectors, timeoutMs: deps.probeTimeoutMs });
  return { metrics, routes: opsRoutes({ metrics, readiness }) };
}
