/**
 * `GET /.well-known/ucp` — the business profile of the current release (UCP_VERSION), with
 * `supported_versions` linking the older release it also speaks — and `GET /.well-known/ucp/<version>`,
 * each accepted release's own leaf profile (overview.md "Discovery, Governance, and Negotiation",
 * "Protocol Version"). Public (no key, no UCP-Agent: a platform reads it before it can negotiate),
 * the same for every merchant, never a redirect ("Hosting"), cacheable as profile-origin.ts says,
 * and rate limited per client address. Refusals (405, 404 of another version, 429) are UCP errors
 * in the current release's shape.
 */
import type { RequestHandler, Response } from 'express';
import { rateLimit as expressRateLimit } from 'express-rate-limit';
import type { PaymentHandlerDeclaration } from '../payments/payment-provider.js';
import { businessProfile, type ProfileSettings } from './business-profile.js';
import { profileOrigin } from './profile-origin.js';
import type { PublicSigningJwk } from './signing-keys.js';
import { UcpError } from './ucp-error.js';
import { acceptedVersions, type UcpVersion } from './ucp-version.js';

export const UCP_DISCOVERY_PATH = '/.well-known/ucp';

export interface UcpDiscoveryOptions {
  current: UcpVersion;
  publicBaseUrl: string | undefined;
  trustProxy?: number | undefined;
  signingKeys: readonly PublicSigningJwk[];
  /** The test payment handler is offered (development and sandbox). */
  testHandler: boolean;
  /** The payment provider's handlers the profile shows (payment-handlers.ts). */
  paymentHandlers?: readonly PaymentHandlerDeclaration[];
  /** Requests per minute per client address (default 300). */
  perMinute?: number;
}

function refuse(res: Response, current: UcpVersion, error: UcpError): void {
  const { status, body } = error.answer(current);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json(body);
}

/** Answers the discovery paths (GET and HEAD); passes every other path on. */
export function ucpDiscovery(options: UcpDiscoveryOptions): RequestHandler {
  const { current } = options;
  const limiter = expressRateLimit({
    windowMs: 60_000,
    limit: options.perMinute ?? 300,
    standardHeaders: false,
    legacyHeaders: false,
    validate: false,
    handler: (_req, res, _next, limits) => {
      refuse(res, current, new UcpError('rate_limit_exceeded', `More than ${limits.limit} discovery requests a minute from this address`, 429, { 'Retry-After': '60' }));
    },
  });
  return (req, res, next) => {
    const path = req.path.length > 1 ? req.path.replace(/\/$/, '') : req.path;
    if (path !== UCP_DISCOVERY_PATH && !path.startsWith(`${UCP_DISCOVERY_PATH}/`)) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return refuse(res, current, new UcpError('method_not_allowed', `${req.method} is not allowed on ${path} (allowed: GET, HEAD)`, 405));
    }
    return limiter(req, res, () => {
      const asked = path === UCP_DISCOVERY_PATH ? current : path.slice(UCP_DISCOVERY_PATH.length + 1);
      const version = acceptedVersions(current).find((accepted) => accepted === asked);
      if (!version) {
        return refuse(res, current, new UcpError('not_found', `No UCP profile at ${path}: this business speaks ${acceptedVersions(current).join(' and ')} (see ${UCP_DISCOVERY_PATH})`, 404));
      }
      let origin;
      try {
        origin = profileOrigin(req, options);
      } catch (error) {
        if (error instanceof UcpError) return refuse(res, current, error);
        throw error;
      }
      const settings: ProfileSettings = { origin: origin.origin, current, signingKeys: options.signingKeys, testHandler: options.testHandler, paymentHandlers: options.paymentHandlers ?? [] };
      res.setHeader('Cache-Control', origin.cacheControl);
      for (const header of origin.vary) res.vary(header);
      res.json(businessProfile(version, settings, { leaf: path !== UCP_DISCOVERY_PATH }));
    });
  };
}
