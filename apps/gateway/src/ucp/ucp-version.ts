/**
 * The UCP releases this gateway speaks and which of them a request may use (overview.md
 * "Version Negotiation"). UCP_VERSION names the current one, the one `/.well-known/ucp` describes:
 * - 2026-04-08 current: a platform's version must be the current one or a key of the profile's
 *   `supported_versions` (2026-01-11, the older release we also speak) — "Request-Time Validation".
 * - 2026-01-11 current: "if platform version ≤ business version: Business MUST process the
 *   request" (at 2026-01-11); a newer version (2026-04-08 included) is `version_unsupported`.
 *   2026-01-11 has no `supported_versions`, and 2026-04-08 lists only older versions there.
 */
import { UCP_RELEASES, type UcpRelease } from '../config/config.js';

export const UCP_VERSIONS = UCP_RELEASES;
export type UcpVersion = UcpRelease;

/** Where UCP's REST operations live (the `dev.ucp.shopping` REST endpoint is the public origin + this). */
export const UCP_PREFIX = '/ucp';
/** The MCP endpoint the profile names (the Streamable HTTP transport is a later slice of issue 24). */
export const MCP_PATH = '/mcp';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const isUcpVersion = (value: string): value is UcpVersion => (UCP_VERSIONS as readonly string[]).includes(value);

/** The releases a platform may use while `current` is the profile's version, oldest first. */
export function acceptedVersions(current: UcpVersion): UcpVersion[] {
  return UCP_VERSIONS.filter((version) => version <= current);
}

/** The older releases `current`'s profile links from `supported_versions` (none for 2026-01-11, which has no such field). */
export function linkedVersions(current: UcpVersion): UcpVersion[] {
  return current === '2026-01-11' ? [] : acceptedVersions(current).filter((version) => version !== current);
}

/**
 * The release a request from a platform declaring `declared` is processed at, or undefined when
 * it is `version_unsupported`. Dates compare as strings (YYYY-MM-DD).
 */
export function negotiatedVersion(declared: string, current: UcpVersion): UcpVersion | undefined {
  if (!DATE.test(declared)) return undefined;
  if (isUcpVersion(declared) && acceptedVersions(current).includes(declared)) return declared;
  if (current === '2026-01-11' && declared < current) return current; // 2026-01-11: an older platform is processed
  return undefined;
}
