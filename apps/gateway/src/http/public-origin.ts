/**
 * The origin a public document names (ACP discovery's `api_base_url`, UCP's business profile), and
 * how the answer may be cached. With PUBLIC_BASE_URL (required in production) it is that origin,
 * whatever the request says: the same document for everyone, publicly cacheable for an hour, as both
 * protocols recommend. Without it (development, sandbox) it is the request's own origin — `Host`, or
 * `X-Forwarded-Host`/`X-Forwarded-Proto` when TRUST_PROXY trusts the hop they came from — which any
 * client can set: such a document is answered `private, no-store` with `Vary` naming those headers,
 * so that no shared cache keeps one client's Host for the next. Each edge refuses, in its own error
 * shape, a request whose origin cannot be named (`undefined` here).
 */
import type { Request } from 'express';

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

export const PUBLIC_DOCUMENT_CACHE = 'public, max-age=3600';

/** A host name, IPv4 or bracketed IPv6 literal, with an optional port: nothing else (no path, user, query). */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/;

/** The headers a document built from the request's own origin varies with. */
export function originHeaders(options: PublicOriginOptions): string[] {
  return (options.trustProxy ?? 0) > 0 ? ['Host', 'X-Forwarded-Host', 'X-Forwarded-Proto'] : ['Host'];
}

/** The document's origin; undefined when it comes from the request and the request's is not an http(s) host. */
export function publicOrigin(req: Request, options: PublicOriginOptions): PublicOrigin | undefined {
  if (options.publicBaseUrl) return { origin: options.publicBaseUrl, cacheControl: PUBLIC_DOCUMENT_CACHE, vary: [] };
  const protocol = req.protocol; // X-Forwarded-Proto only from a trusted hop (Express's trust proxy)
  const host = req.host ?? ''; // likewise X-Forwarded-Host
  if ((protocol !== 'http' && protocol !== 'https') || !HOST.test(host)) return undefined;
  try {
    return { origin: new URL(`${protocol}://${host}`).origin, cacheControl: 'private, no-store', vary: originHeaders(options) };
  } catch {
    return undefined; // a port out of range, a malformed IPv6 literal
  }
}
