/**
 * The origin the UCP profile names (its REST and MCP endpoints, `supported_versions` links) and how
 * the profile may be cached. With PUBLIC_BASE_URL (required in production) it is that origin and
 * the profile is `public, max-age=3600`, as overview.md "Hosting" asks (`public`, `max-age` ≥ 60,
 * never `private`/`no-store`/`no-cache`). Without it (development, sandbox) it is the request's own
 * origin — its Host, or X-Forwarded-* from a hop TRUST_PROXY trusts — which any client can set:
 * then, as for ACP discovery, the answer is `private, no-store` with `Vary` naming those headers, so
 * that no shared cache keeps one client's Host for the next. That departs from "Hosting" only
 * where no public origin is configured, which a published profile never lacks.
 */
import type { Request } from 'express';
import { UcpError } from './ucp-error.js';

export interface ProfileOrigin {
  origin: string;
  cacheControl: string;
  vary: string[];
}

export const PUBLIC_PROFILE_CACHE = 'public, max-age=3600';

/** A host name, IPv4 or bracketed IPv6 literal, with an optional port: nothing else. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/;

export function profileOrigin(req: Request, options: { publicBaseUrl: string | undefined; trustProxy?: number | undefined }): ProfileOrigin {
  if (options.publicBaseUrl) return { origin: options.publicBaseUrl, cacheControl: PUBLIC_PROFILE_CACHE, vary: [] };
  const vary = (options.trustProxy ?? 0) > 0 ? ['Host', 'X-Forwarded-Host', 'X-Forwarded-Proto'] : ['Host'];
  const host = req.host ?? '';
  let origin: string | undefined;
  if ((req.protocol === 'http' || req.protocol === 'https') && HOST.test(host)) {
    try {
      origin = new URL(`${req.protocol}://${host}`).origin;
    } catch {
      // a port out of range, a malformed IPv6 literal: refused below
    }
  }
  if (!origin) throw new UcpError('invalid_request', `The request's origin (${vary.join(', ')}) is not an http(s) host the profile can name; set PUBLIC_BASE_URL`, 400);
  return { origin, cacheControl: 'private, no-store', vary };
}
