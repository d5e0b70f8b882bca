/**
 * The origin the UCP profile names (its REST and MCP endpoints, `supported_versions` links) and how
 * the profile may be cached (http/public-origin.ts): with PUBLIC_BASE_URL, `public, max-age=3600`, as
 * overview.md "Hosting" asks (`public`, `max-age` ≥ 60, never `private`/`no-store`/`no-cache`).
 * Without it (development, sandbox) the request's own origin, answered `private, no-store` — a
 * departure from "Hosting" only where no public origin is configured, which a published profile never
 * lacks. A request whose origin cannot be named is refused in UCP's error shape.
 */
import type { Request } from 'express';
import { originHeaders, publicOrigin, type PublicOrigin, type PublicOriginOptions } from '../http/public-origin.js';
import { UcpError } from './ucp-error.js';

export function profileOrigin(req: Request, options: PublicOriginOptions): PublicOrigin {
  const found = publicOrigin(req, options);
  if (!found) throw new UcpError('invalid_request', `The request's origin (${originHeaders(options).join(', ')}) is not an http(s) host the profile can name; set PUBLIC_BASE_URL`, 400);
  return found;
}
