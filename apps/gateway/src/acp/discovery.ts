/**
 * `GET /.well-known/acp.json` (rfc.discovery.md): whether and how an agent can use ACP here —
 * protocol and versions, `api_base_url` (PUBLIC_BASE_URL + /acp), transports, services, currencies,
 * intervention types. Public (no key), identical for every merchant (no merchant identifiers:
 * nothing to enumerate), rate limited per client address, and cacheable for an hour only when its
 * origin comes from PUBLIC_BASE_URL, never from the request's Host (public-origin.ts).
 */
import { Router } from 'express';
import { rateLimit as expressRateLimit } from 'express-rate-limit';
import { CURRENCY_EXPONENTS } from '../checkout/pricing/currency-exponents.js';
import { AcpError } from './acp-error.js';
import { ACP_VERSION, ACP_VERSIONS } from './acp-version.js';
import { publicOrigin } from './public-origin.js';

export interface DiscoveryOptions {
  /** The public origin agents reach this gateway at (PUBLIC_BASE_URL); the request's own, not publicly cacheable, when undefined. */
  publicBaseUrl: string | undefined;
  /** TRUST_PROXY: whether X-Forwarded-Host/-Proto can make the request's origin (without PUBLIC_BASE_URL). */
  trustProxy?: number | undefined;
  /** Intervention types the payment provider supports (e.g. `3ds`). */
  interventions: readonly string[];
  /** Requests per minute per client address (default 300). */
  perMinute?: number;
}

/** The services this gateway implements: agentic checkout, and post-purchase orders (order_create / order_update webhooks, rfc.orders.md). */
export const ACP_SERVICES: string[] = ['checkout', 'orders'];

export function discoveryDocument(origin: string, interventions: readonly string[]) {
  return {
    protocol: { name: 'acp', version: ACP_VERSION, supported_versions: [...ACP_VERSIONS], documentation_url: `${origin}/docs` },
    api_base_url: `${origin}/acp`,
    transports: ['rest'],
    capabilities: {
      services: [...ACP_SERVICES],
      ...(interventions.length ? { intervention_types: [...interventions] } : {}),
      supported_currencies: Object.keys(CURRENCY_EXPONENTS).map((code) => code.toLowerCase()).sort(),
      supported_locales: ['en'],
    },
  };
}

export function discoveryRoutes(options: DiscoveryOptions): Router {
  const router = Router();
  const limiter = expressRateLimit({
    windowMs: 60_000,
    limit: options.perMinute ?? 300,
    standardHeaders: false,
    legacyHeaders: false,
    validate: false,
    handler: (_req, _res, next, limits) => {
      next(new AcpError(429, 'invalid_request', 'rate_limit_exceeded', `More than ${limits.limit} discovery requests a minute from this address`, undefined, {}, { 'Retry-After': '60' }));
    },
  });
  router.use('/.well-known/acp.json', (req, _res, next) => {
    req.ctx.operation = { operationId: 'acp.discovery', method: req.method, path: '/.well-known/acp.json', scopes: [], acceptsBody: false };
    next();
  });
  router.get('/.well-known/acp.json', limiter, (req, res) => {
    const { origin, cacheControl, vary } = publicOrigin(req, options);
    res.setHeader('Cache-Control', cacheControl);
    for (const header of vary) res.vary(header);
    res.json(discoveryDocument(origin, options.interventions));
  });
  router.all('/.well-known/acp.json', (req, res) => {
    res.setHeader('Allow', 'GET, HEAD');
    throw new AcpError(405, 'invalid_request', 'method_not_allowed', `${req.method} is not allowed on /.well-known/acp.json (allowed: GET, HEAD)`);
  });
  return router;
}
