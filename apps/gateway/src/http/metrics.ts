/**
 * The gateway's Prometheus instruments, one registry per app (tests run several
 * gateways in one process, so nothing here is a global singleton). Labels carry
 * operation ids, methods, statuses and outcomes — never a merchant, a key or a
 * path parameter — so `/metrics` can be public without leaking data.
 *
 *   const metrics = createMetrics();
 *   metrics.idempotentReplays.inc();
 *   metrics.webhookAttempts.inc({ outcome: 'succeeded' });
 *   metrics.searchLatency.observe({ mode: 'hybrid' }, seconds);
 *   res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
 */
import type { Request } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withTimeout } from '../kernel/concurrency/with-timeout.js';

/** Deliveries due and not yet sent: how many, and how long the oldest has waited. */
export interface OutboxLag {
  due: number;
  lagSeconds: number;
}

export interface Metrics {
  readonly registry: Registry;
  /** Answered requests, by contract operation (`none` when the path is not in the contract), method and status. */
  readonly requests: Counter<'operation' | 'method' | 'status'>;
  readonly requestDuration: Histogram<'operation' | 'status'>;
  /** 429s of the rate limiter, by window (`minute` or `day`). */
  readonly rateLimitRefusals: Counter<'window'>;
  /** Stored answers sent again for a repeated Idempotency-Key. */
  readonly idempotentReplays: Counter;
  /** Outbox delivery attempts, by outcome (succeeded, pending, failed, abandoned, superseded). */
  readonly webhookAttempts: Counter<'outcome'>;
  /** Catalog searches with `q`, by mode (hybrid or keyword). */
  readonly searchLatency: Histogram<'mode'>;
  /** Sets how the outbox gauges are read on each scrape (a query; failures leave them NaN). */
  setOutboxProbe(probe: () => Promise<OutboxLag>): void;
  /** Sets how `gateway_catalog_degraded` is read on each scrape: true while catalog reads go to the database. */
  setCatalogProbe(probe: () => boolean): void;
}

export interface MetricsOptions {
  /** Also collect Node's process metrics (CPU, memory, event-loop lag, GC): once per process, in the server. */
  processMetrics?: boolean;
}

const HTTP_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SEARCH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const OUTBOX_PROBE_TIMEOUT_MS = 2_000;

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  let outboxProbe: (() => Promise<OutboxLag>) | undefined;
  let catalogProbe: (() => boolean) | undefined;
  let lastRead: Promise<OutboxLag | undefined> | undefined;
  // Both gauges read the same probe once per scrape.
  const readOutbox = (): Promise<OutboxLag | undefined> => {
    if (!outboxProbe) return Promise.resolve(undefined);
    lastRead ??= withTimeout(outboxProbe(), OUTBOX_PROBE_TIMEOUT_MS)
      .catch(() => undefined)
      .finally(() => setImmediate(() => (lastRead = undefined)));
    return lastRead;
  };

  new Gauge({
    name: 'gateway_outbox_lag_seconds',
    help: 'How long the oldest due webhook delivery has waited past its next_attempt_at (0 when none is due; NaN when the database did not answer)',
    registers: [registry],
    async collect() {
      this.set((await readOutbox())?.lagSeconds ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'gateway_outbox_due_deliveries',
    help: 'Webhook deliveries that are pending and due now (NaN when the database did not answer)',
    registers: [registry],
    async collect() {
      this.set((await readOutbox())?.due ?? Number.NaN);
    },
  });

  new Gauge({
    name: 'gateway_catalog_degraded',
    help: "1 while the catalog read model is out of service and catalog reads go to the database (a failed update or a lost change listener; it reloads by itself), else 0",
    registers: [registry],
    collect() {
      this.set(catalogProbe?.() ? 1 : 0);
    },
  });

  return {
    registry,
    requests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered, by contract operation, method and status',
      labelNames: ['operation', 'method', 'status'] as const,
      registers: [registry],
    }),
    requestDuration: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time from a request arriving to its response being sent, by contract operation and status',
      labelNames: ['operation', 'status'] as const,
      buckets: HTTP_BUCKETS,
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: 'gateway_rate_limit_refusals_total',
      help: 'Requests refused with 429 by the rate limiter, by window',
      labelNames: ['window'] as const,
      registers: [registry],
    }),
    idempotentReplays: new Counter({
      name: 'gateway_idempotent_replays_total',
      help: 'Stored answers sent again for a repeated Idempotency-Key (Idempotent-Replayed: true)',
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'gateway_webhook_attempts_total',
      help: 'Outbox webhook delivery attempts, by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    searchLatency: new Histogram({
      name: 'gateway_search_duration_seconds',
      help: 'Catalog search time for queries with q, by mode',
      labelNames: ['mode'] as const,
      buckets: SEARCH_BUCKETS,
      registers: [registry],
    }),
    setOutboxProbe(probe) {
      outboxProbe = probe;
    },
    setCatalogProbe(probe) {
      catalogProbe = probe;
    },
  };
}

/** The metrics of the app serving this request (set by createApp), for middleware that count something. */
export function metricsOf(req: Request): Metrics | undefined {
  return req.app.locals.metrics as Metrics | undefined;
}
