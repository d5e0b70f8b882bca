import cors from 'cors';
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

/**
 * CORS with credentials: the request's origin is echoed (never `*`, which
 * browsers ignore with credentials) when it is allowed — every origin unless
 * `ALLOWED_ORIGINS` lists some — and the requested headers are reflected.
 *
 *   app.use(corsPolicy(['https://shop.example']));
 */
export function corsPolicy(allowedOrigins: string[] | undefined): RequestHandler {
  return cors({
    origin: allowedOrigins ?? true,
    credentials: true,
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
