/**
 * The operations endpoints, outside the contract and without an API key:
 * `/healthz` (the process is up), `/readyz` (it can serve: 200 or 503),
 * `/metrics` (Prometheus), `/docs`, `/openapi.json` and the operators' console (`/console`). Mounted before the
 * contract's route matching, so nothing else sees these paths. `/readyz` and `/metrics`
 * are limited per client address, and `/metrics` may need a bearer token (ops-guard.ts).
 *
 *   app.use(opsRoutes({ metrics, readiness: new Readiness({ store }) }));
 */
import { Router, type RequestHandler } from 'express';
import { consoleRoutes } from './console-page.js';
import { docsRoutes } from './docs.js';
import type { Metrics } from '../http/metrics.js';
import { addressBudget, opsGuard } from './ops-guard.js';
import type { Readiness } from './readiness.js';

export interface OpsRoutesDeps {
  metrics: Metrics;
  readiness: Readiness;
  /** Requests to /readyz and /metrics per client address and minute (0: no limit). */
  perMinute: number;
  /** When set, /metrics needs `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string | undefined;
}

/** The paths below: any other request skips this router's matching (most of them: the API's). */
const OPS_PATHS = /^\/(healthz|readyz|metrics|openapi\.json|acp\/openapi\.json|ucp\/openapi\.json|docs|console)(\/|$)/i;

export function opsRoutes({ metrics, readiness, perMinute, metricsToken }: OpsRoutesDeps): RequestHandler {
  const router = Router();
  const budget = addressBudget(perMinute);
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get('/readyz', opsGuard(budget), async (_req, res) => {
    const { ready, checks, details } = await readiness.check();
    res.setHeader('Cache-Control', 'no-store');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unready', checks, ...(details ? { details } : {}) });
  });
  router.get('/metrics', opsGuard(budget, metricsToken), async (_req, res) => {
    const text = await metrics.registry.metrics();
    res.setHeader('Cache-Control', 'no-store');
    res.type(metrics.registry.contentType).send(text);
  });
  router.use(docsRoutes());
  router.use(consoleRoutes());
  return (req, res, next) => (OPS_PATHS.test(req.path) ? router(req, res, next) : next());
}
