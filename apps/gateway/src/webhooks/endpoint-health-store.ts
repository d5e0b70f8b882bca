/**
 * How a merchant's webhook endpoints have been answering: over the last 24 hours, the attempts
 * made, how many a 2xx answered (what the delivery worker counts as delivered), the mean and
 * 95th-percentile latency; and each endpoint's last failed attempt, however old. The console
 * shows it beside every endpoint and lists the failing ones on its home page.
 */
import type { Database } from '../db/database.js';
import { iso } from '../db/sql.js';
import { utc } from '../db/sql-time.js';
import { sql } from '../db/statement.js';

export const HEALTH_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface LastFailure {
  at: string;
  responseStatus: number | null;
  error: string | null;
}

export interface EndpointHealth {
  attempts: number;
  succeeded: number;
  /** succeeded / attempts; null when nothing was attempted in the window. */
  successRate: number | null;
  meanLatencyMs: number | null;
  p95LatencyMs: number | null;
  /** The last attempt in the window failed: the endpoint is failing now. */
  failingNow: boolean;
  lastFailure: LastFailure | null;
}

const NONE: EndpointHealth = { attempts: 0, succeeded: 0, successRate: null, meanLatencyMs: null, p95LatencyMs: null, failingNow: false, lastFailure: null };

interface WindowRow {
  endpoint_id: string;
  attempts: number;
  succeeded: number;
  mean_ms: number | null;
  p95_ms: number | null;
  last_ok: boolean;
}

interface FailureRow {
  endpoint_id: string;
  at: string;
  response_status: number | null;
  error: string | null;
}

const OK = sql`(a.response_status BETWEEN 200 AND 299)`;

export class EndpointHealthStore {
  constructor(private readonly db: Pick<Database, 'sql'>) {}

  /** The health of every endpoint of the merchant, by endpoint id (an endpoint never attempted is absent: use `healthOf`). */
  async ofMerchant(merchantId: string, now = new Date()): Promise<Map<string, EndpointHealth>> {
    const since = new Date(now.getTime() - HEALTH_WINDOW_MS);
    const [windows, failures] = await Promise.all([
      this.db.sql.query<WindowRow>(sql`
        SELECT d.endpoint_id,
               count(*)::int4 AS attempts,
               (count(*) FILTER (WHERE ${OK}))::int4 AS succeeded,
               avg(a.duration_ms)::float8 AS mean_ms,
               (percentile_cont(0.95) WITHIN GROUP (ORDER BY a.duration_ms))::float8 AS p95_ms,
               coalesce((array_agg(${OK} ORDER BY a.created_at DESC, a.number DESC))[1], false) AS last_ok
          FROM webhook_attempts AS a
          JOIN webhook_deliveries AS d ON d.id = a.delivery_id
          JOIN webhook_endpoints AS e ON e.id = d.endpoint_id
         WHERE e.merchant_id = ${merchantId} AND a.created_at >= ${utc(since)}
         GROUP BY d.endpoint_id`),
      this.db.sql.query<FailureRow>(sql`
        SELECT DISTINCT ON (d.endpoint_id) d.endpoint_id, ${iso(sql`a.created_at`)} AS at, a.response_status, a.error
          FROM webhook_attempts AS a
          JOIN webhook_deliveries AS d ON d.id = a.delivery_id
          JOIN webhook_endpoints AS e ON e.id = d.endpoint_id
         WHERE e.merchant_id = ${merchantId} AND NOT coalesce(${OK}, false)
         ORDER BY d.endpoint_id, a.created_at DESC, a.number DESC`),
    ]);
    const health = new Map<string, EndpointHealth>();
    for (const w of windows) {
      health.set(w.endpoint_id, {
        attempts: w.attempts,
        succeeded: w.succeeded,
        successRate: w.attempts > 0 ? w.succeeded / w.attempts : null,
        meanLatencyMs: w.mean_ms === null ? null : Math.round(w.mean_ms),
        p95LatencyMs: w.p95_ms === null ? null : Math.round(w.p95_ms),
        failingNow: !w.last_ok,
        lastFailure: null,
      });
    }
    for (const f of failures) {
      const lastFailure = { at: f.at, responseStatus: f.response_status, error: f.error };
      health.set(f.endpoint_id, { ...(health.get(f.endpoint_id) ?? NONE), lastFailure });
    }
    return health;
  }
}

export const healthOf = (all: Map<string, EndpointHealth>, endpointId: string): EndpointHealth => all.get(endpointId) ?? NONE;
