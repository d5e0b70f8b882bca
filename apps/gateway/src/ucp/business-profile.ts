/**
 * The business profile of one UCP release (overview.md "Business Profile"; the release's
 * discovery/profile_schema.json): `ucp.version`; the `dev.ucp.shopping` service with its REST
 * endpoint (the public origin + /ucp) and its MCP endpoint (the origin + /mcp); the capabilities
 * served so far (capabilities.ts); the payment handlers; `signing_keys`; and, in the current
 * profile only, `supported_versions` where the release has it ("Protocol Version": older releases
 * mapped to their own profiles, which are leaf documents without that field). Each release shapes
 * the profile its own way (releases/: `businessProfile`).
 */
import type { PaymentHandlerDeclaration } from '../payments/payment-provider.js';
import { advertisedCapabilities, capabilityEntries } from './capabilities.js';
import { releaseOf } from './releases/releases.js';
import type { PublicSigningJwk } from './signing-keys.js';
import { linkedVersions, MCP_PATH, UCP_PREFIX, type UcpVersion } from './ucp-version.js';

export interface ProfileSettings {
  /** The public origin agents reach this gateway at, without a trailing slash. */
  origin: string;
  /** The release `/.well-known/ucp` describes (UCP_VERSION). */
  current: UcpVersion;
  signingKeys: readonly PublicSigningJwk[];
  /** Whether the test payment handler is offered (never in production; only with the test provider). */
  testHandler: boolean;
  /** The payment provider's handlers, as the profile shows them (payment-handlers.ts). */
  paymentHandlers?: readonly PaymentHandlerDeclaration[];
}

/** Where the profile of `version` is served: `/.well-known/ucp/<version>` (the spec's own example). */
export const versionProfilePath = (version: UcpVersion): string => `/.well-known/ucp/${version}`;

/**
 * The profile of `version`: the current one at /.well-known/ucp carries `supported_versions`; a
 * version's own profile (`leaf`, at /.well-known/ucp/<version>) never does.
 */
export function businessProfile(version: UcpVersion, settings: ProfileSettings, { leaf }: { leaf: boolean }): Record<string, unknown> {
  const release = releaseOf(version);
  const linked = settings.current === version && !leaf ? linkedVersions(version) : [];
  const profile = release.businessProfile({
    endpoints: { rest: `${settings.origin}${UCP_PREFIX}`, mcp: `${settings.origin}${MCP_PATH}` },
    capabilities: capabilityEntries(release, advertisedCapabilities(release)),
    handlers: { testHandler: settings.testHandler, provider: settings.paymentHandlers },
    supportedVersions: Object.fromEntries(linked.map((older) => [older, `${settings.origin}${versionProfilePath(older)}`])),
  });
  return { ...profile, ...(settings.signingKeys.length ? { signing_keys: settings.signingKeys.map((key) => ({ ...key })) } : {}) };
}
