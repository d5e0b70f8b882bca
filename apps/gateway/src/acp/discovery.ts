/**
 * `GET /.well-known/acp.json` (rfc.discovery.md): whether and how an agent can use ACP here —
 * protocol and versions, `api_base_url` (PUBLIC_BASE_URL + /acp), transports, services, extensions
 * (`discount`), currencies, intervention types. Public (no key), identical for every merchant (no merchant identifiers:
 * nothing to enumerate), rate limited per client address, and cacheable for an hour only when its
 * origin comes from PUBLIC_BASE_URL, never from the request's Host (public-origin.ts).
 */
import type { RequestHandler } from 'express';
import { rateLimit as expressRateLimit } from 'express-rate-limit';
import { CURRENCY_EXPONENTS } from '../kernel/money/currency-exponents.js';
import { AcpError } from './acp-error.js';
import { ACP_VERSION, ACP_VERSIONS } from './acp-version.js';
import { publicOrigin } from './public-origin.js';
import { DISCOUNT_EXTENSION } from './wire/discounts.js';

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
    // REST at api_base_url; MCP at /mcp (mcp-binding.md "Discovery": the enum names the transport, the endpoint is the binding's `/mcp`).
    transports: ['rest', 'mcp'],
    capabilities: {
      services: [...ACP_SERVICES],
      // Supported; active per session as negotiated at creation (capabilities.ts, wire/discounts.ts).
      extensions: [{ name: DISCOUNT_EXTENSION }],
      ...(interventions.length ? { intervention_types: [...interventions] } : {}),
      supported_currencies: Object.keys(CURRENCY_EXPONENTS).map((code) => code.toLowerCase()).sort(),
      supported_locales: ['en'],
    },
  };
}

export const DISCOVERY_PATH = '/.well-known/acp.json';

/** Answers GET and HEAD of the discovery path (405 otherwise); passes every other path on. */
export function discovery(options: DiscoveryOptions): RequestHandler {
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
  const answer: RequestHandler = (req, res) => {
    const { origin, cacheControl, vary } = publicOrigin(req, options);
    res.setHeader('Cache-Control', cacheControl);
    for (const header of vary) res.vary(header);
    res.json(discoveryDocument(origin, options.interventions));
  };
  return (req, res, next) => {
    if (req.path !== DISCOVERY_PATH) return next();
    req.ctx.operation = { operationId: 'acp.discovery', method: req.method, path: DISCOVERY_PATH, scopes: [], acceptsBody: false };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      throw new AcpError(405, 'invalid_request', 'method_not_allowed', `${req.method} is not allowed on ${DISCOVERY_PATH} (allowed: GET, HEAD)`);
    }
    return limiter(req, res, (error?: unknown) => {
      if (error) return next(error);
      try {
        answer(req, res, next);
      } catch (thrown) {
        next(thrown);
      }
    });
  };
}
