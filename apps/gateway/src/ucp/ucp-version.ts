/**
 * The UCP releases this gateway speaks and which of them a request may use (overview.md
 * "Version Negotiation"). UCP_VERSION names the current one, the one `/.well-known/ucp` describes;
 * the current release's rules decide (releases/: `negotiation`):
 * - a release whose profile links older releases (`supported_versions`): a platform's version must
 *   be the current one or one it links — "Request-Time Validation";
 * - a release that processes older platforms: "if platform version ≤ business version: Business
 *   MUST process the request" (at the current release); a newer version is `version_unsupported`.
 * A release links only older versions, and only the current profile links any.
 */
import { isUcpVersion, releaseOf, UCP_VERSIONS } from './releases/releases.js';
import type { UcpVersion } from './releases/release.js';

export { isUcpVersion, UCP_VERSIONS, type UcpVersion };

/** Where UCP's REST operations live (the `dev.ucp.shopping` REST endpoint is the public origin + this). */
export const UCP_PREFIX = '/ucp';
/** The MCP endpoint the profile names (the Streamable HTTP transport is a later slice of issue 24). */
export const MCP_PATH = '/mcp';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The releases a platform may use while `current` is the profile's version, oldest first. */
export function acceptedVersions(current: UcpVersion): UcpVersion[] {
  return UCP_VERSIONS.filter((version) => version <= current);
}

/** The older releases `current`'s profile links from `supported_versions` (none where the release has no such field). */
export function linkedVersions(current: UcpVersion): UcpVersion[] {
  return releaseOf(current).negotiation.linksOlderReleases ? acceptedVersions(current).filter((version) => version !== current) : [];
}

/**
 * The release a request from a platform declaring `declared` is processed at, or undefined when
 * it is `version_unsupported`. Dates compare as strings (YYYY-MM-DD).
 */
export function negotiatedVersion(declared: string, current: UcpVersion): UcpVersion | undefined {
  if (!DATE.test(declared)) return undefined;
  if (isUcpVersion(declared) && acceptedVersions(current).includes(declared)) return declared;
  if (releaseOf(current).negotiation.processesOlderPlatforms && declared < current) return current; // an older platform is processed at the current release
  return undefined;
}
