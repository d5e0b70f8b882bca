/**
 * Cross-site request forgery, for the console's session cookie: a write the cookie authenticates
 * must come from a page of this gateway (or of an origin listed in ADMIN_CORS_ORIGINS). Browsers
 * attach the cookie by themselves, so the cookie alone never proves the operator meant the request.
 * This is the check Go's net/http CrossOriginProtection and Rails' origin check make, on top of the
 * cookie's SameSite=Strict (which still lets a sibling sub-domain's page through) and the
 * `X-Console-Request: 1` header (which makes any cross-origin fetch need a preflight /admin answers
 * without CORS headers):
 *
 * - `Sec-Fetch-Site` (sent by every current browser): `same-origin` or `none` (typed, a bookmark)
 *   passes; `same-site` or `cross-site` passes only with a listed `Origin`.
 * - Without it, an `Origin` header must be this gateway's: its host equals the request's `Host`, or
 *   it is PUBLIC_BASE_URL, or it is listed.
 * - With neither header the request is not a browser's (a browser names the origin of every
 *   cross-origin write): it passes, as an operator's script with the cookie does.
 *
 * A refusal is 403 and names what to do; the session is not even read.
 *
 *   if (!READS.has(req.method)) requireSameOrigin(req, { publicBaseUrl, trustedOrigins });
 */
import type { Request } from 'express';
import { AuthorizationError } from '../kernel/errors.js';

export interface SameOriginOptions {
  /** PUBLIC_BASE_URL: the origin the console is published at, whatever Host the proxy passes on. */
  publicBaseUrl?: string | undefined;
  /** ADMIN_CORS_ORIGINS: other origins whose pages may use the console's session. */
  trustedOrigins?: readonly string[] | undefined;
}

export function requireSameOrigin(req: Request, options: SameOriginOptions): void {
  const origin = req.get('origin');
  const site = req.get('sec-fetch-site')?.toLowerCase();
  const listed = origin !== undefined && (options.trustedOrigins ?? []).includes(origin);
  if (site === 'same-origin' || site === 'none' || listed) return;
  if (site === undefined) {
    if (origin === undefined || isOwnOrigin(req, origin, options.publicBaseUrl)) return;
  }
  throw new AuthorizationError(
    `A write on a console session must come from this gateway's own pages (Origin ${JSON.stringify(origin ?? null)}, Sec-Fetch-Site ${JSON.stringify(site ?? null)}): ` +
      'cross-origin requests are refused; use Authorization: Bearer op_… from a script, or list the origin in ADMIN_CORS_ORIGINS',
  );
}

function isOwnOrigin(req: Request, origin: string, publicBaseUrl: string | undefined): boolean {
  if (origin === publicBaseUrl) return true;
  try {
    const host = req.get('host');
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false; // `null` (a sandboxed frame, a file), or not a URL
  }
}
