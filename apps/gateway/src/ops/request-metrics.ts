import type { RequestHandler } from 'express';
import type { Metrics } from '../http/metrics.js';

/**
 * Counts each answered request and observes its duration, labelled with the
 * contract operation (`none` for paths outside the contract), method and status.
 *
 *   app.use(requestMetrics(metrics));
 */
export function requestMetrics(metrics: Metrics): RequestHandler {
  // Each series' children, made once: prom-client otherwise checks and hashes the labels on every call.
  const series = new Map<string, { count: { inc(): void }; duration: { observe(seconds: number): void } }>();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const operation = req.ctx?.operation?.operationId ?? 'none';
      const status = String(res.statusCode);
      const key = `${operation} ${req.method} ${status}`;
      let children = series.get(key);
      if (!children) {
        children = { count: metrics.requests.labels({ operation, method: req.method, status }), duration: metrics.requestDuration.labels({ operation, status }) };
        if (series.size < 10_000) series.set(key, children);
      }
      children.count.inc();
      children.duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
