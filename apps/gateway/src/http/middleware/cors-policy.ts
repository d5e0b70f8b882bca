import type { RequestHandler } from 'express';

export const EXPOSED_HEADERS = [
  'Request-Id',
  'API-Version',
  'Idempotent-Replayed',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

const METHODS = 'GET,POST,PATCH,DELETE,OPTIONS';
const MAX_AGE_SECONDS = '600';

export interface CorsPolicyOptions {
  /**
   * Only the listed origins (none when the list is empty or absent): an unlisted origin's request
   * gets no CORS header at all, and its preflight is not answered here (the edge answers it as any
   * other request). The admin API's policy (ADMIN_CORS_ORIGINS).
   */
  listedOnly?: boolean;
}

/**
 * CORS with credentials: the request's origin is echoed (never `*`, which browsers ignore with
 * credentials) when it is allowed — every origin unless `ALLOWED_ORIGINS` lists some — with
 * `Vary: Origin`. A preflight (`OPTIONS`) is answered here, 204, reflecting the requested headers,
 * methods GET, POST, PATCH, DELETE, OPTIONS, cached 10 minutes. Every answer carries
 * `Access-Control-Allow-Credentials: true` and the exposed headers. The headers the `cors` package
 * set with these options, made once instead of on every request (bench/http's CPU profile).
 * With `listedOnly`, nothing at all unless the origin is listed (the admin API, whose console is
 * same-origin: no other page may read its answers or send it a preflighted write).
 *
 *   app.use(corsPolicy(['https://shop.example']));
 *   app.use(corsPolicy(config.adminCorsOrigins, { listedOnly: true }));
 */
export function corsPolicy(allowedOrigins: string[] | undefined, { listedOnly = false }: CorsPolicyOptions = {}): RequestHandler {
  const allowed = allowedOrigins && new Set(allowedOrigins);
  const exposed = EXPOSED_HEADERS.join(',');
  return (req, res, next) => {
    const origin = req.headers.origin;
    const granted = !!origin && (allowed ? allowed.has(origin) : !listedOnly);
    if (listedOnly && !granted) {
      if (allowed?.size) res.vary('Origin'); // another origin's answer may differ
      return next();
    }
    if (granted) res.setHeader('Access-Control-Allow-Origin', origin);
    res.vary('Origin');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', METHODS);
      res.vary('Access-Control-Request-Headers');
      const requested = req.headers['access-control-request-headers'];
      if (requested) res.setHeader('Access-Control-Allow-Headers', requested);
      res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
      res.setHeader('Access-Control-Expose-Headers', exposed);
      res.statusCode = 204;
      res.setHeader('Content-Length', '0'); // Safari waits for a body otherwise
      res.end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', exposed);
    next();
  };
}
