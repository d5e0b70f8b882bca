/**
 * The origin a public ACP document names (discovery's `api_base_url` and `documentation_url`), and
 * how the answer may be cached. With PUBLIC_BASE_URL (required in production) it is that origin,
 * whatever the request says: the same document for everyone, publicly cacheable for an hour as the
 * discovery RFC recommends. Without it (development, sandbox) it is the request's own origin —
 * `Host`, or `X-Forwarded-Host`/`X-Forwarded-Proto` when TRUST_PROXY trusts the hop they came
 * from — which any client can set: such a document is answered `private, no-store` with `Vary`
 * naming those headers, so that no shared cache keeps one client's Host for the next.
 */
import type { Request } from 'express';
import { AcpError } from './acp-error.js';

export interface PublicOriginOptions {
  /** PUBLIC_BASE_URL, already checked to be a bare http(s) origin (config.ts). */
  publicBaseUrl: string | undefined;
  /** TRUST_PROXY: proxy hops whose X-Forwarded-* headers count (0: none). */
  trustProxy?: number | undefined;
}

export interface PublicOrigin {
  origin: string;
  cacheControl: string;
  /** Request headers the document was built from (none with PUBLIC_BASE_URL). */
  vary: string[];
}

/** A host name, IPv4 or bracketed IPv6 literal, with an optional port: nothing else (no path, user, query). */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/;

export function publicOrigin(req: Request, options: PublicOriginOptions): PublicOrigin {
  if (options.publicBaseUrl) return { origin: options.publicBaseUrl, cacheControl: 'public, max-age=3600', vary: [] };
  const vary = (options.trustProxy ?? 0) > 0 ? ['Host', 'X-Forwarded-Host', 'X-Forwarded-Proto'] : ['Host'];
  const protocol = req.protocol; // X-Forwarded-Proto only from a trusted hop (Express's trust proxy)
  const host = req.host ?? ''; // likewise X-Forwarded-Host
  let origin: string | undefined;
  if ((protocol === 'http' || protocol === 'https') && HOST.test(host)) {
    try {
      origin = new URL(`${protocol}://${host}`).origin;
    } catch {
      // a port out of range, a malformed IPv6 literal: refused below
    }
  }
  if (!origin) {
    throw new AcpError(400, 'invalid_request', 'invalid', `The request's origin (${vary.join(', ')}) is not an http(s) host this gateway can name in a document; set PUBLIC_BASE_URL`);
  }
  return { origin, cacheControl: 'private, no-store', vary };
}
