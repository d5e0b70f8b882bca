/**
 * `GET /ucp/dev/platform-profile.json` — in development only, a sample platform profile for trying
 * UCP against a local gateway without a second server (docs/agents.md's curl walk-through and its
 * MCP example send `UCP-Agent: profile="http://127.0.0.1:8080/ucp/dev/platform-profile.json"`).
 * It declares what a shopping platform declares: checkout with its fulfillment, discount and
 * buyer-consent extensions, and the order capability — of the current release, or of another
 * it speaks (`?version=2026-01-11`), as that release shapes it. It has no order `webhook_url` (no
 * one listens for order webhooks), and is valid against the release's platform profile schema (tested). Outside development the path is
 * not served (the UCP profile answers 404). Development fetches http:// profiles on local addresses.
 */
import type { RequestHandler } from 'express';
import type { GatewayEnv } from '../config/config.js';
import { CAPABILITIES, CAPABILITY, capabilityEntries } from './capabilities.js';
import { releaseOf } from './releases/releases.js';
import { UCP_PREFIX, isUcpVersion, type UcpVersion } from './ucp-version.js';

export const DEV_PLATFORM_PROFILE_PATH = `${UCP_PREFIX}/dev/platform-profile.json`;

const SHOPPING: readonly string[] = [CAPABILITY.checkout, CAPABILITY.fulfillment, CAPABILITY.discount, CAPABILITY.buyerConsent, CAPABILITY.order];

export function devPlatformProfile(version: UcpVersion): Record<string, unknown> {
  const release = releaseOf(version);
  return release.devPlatformProfile(capabilityEntries(release, CAPABILITIES.filter((capability) => SHOPPING.includes(capability.name))));
}

/** Serves the sample profile in development; passes every other request (and every other environment) on. */
export function devPlatformProfileRoute(options: { env: GatewayEnv; current: UcpVersion }): RequestHandler {
  return (req, res, next) => {
    if (options.env !== 'development' || req.path !== DEV_PLATFORM_PROFILE_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const asked = typeof req.query.version === 'string' ? req.query.version : options.current;
    const version = isUcpVersion(asked) ? asked : options.current;
    res.setHeader('Cache-Control', 'no-store');
    res.json(devPlatformProfile(version));
  };
}
