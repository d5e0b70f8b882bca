import type { RequestHandler } from 'express';
import type { Metrics } from './metrics.js';

/**
 * Counts each answered request and observes its duration, labelled with the
 * contract operation (`none` for paths outside the contract), method and status.
 *
 *   app.use(requestMetrics(metrics));
 */
export function requestMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const operation = req.ctx?.operation?.operationId ?? 'none';
      const status = String(res.statusCode);
      metrics.requests.inc({ operation, method: req.method, status });
      metrics.requestDuration.observe({ operation, status }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
