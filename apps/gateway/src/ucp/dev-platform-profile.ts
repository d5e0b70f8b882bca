/**
 * `GET /ucp/dev/platform-profile.json` — in development only, a sample platform profile for trying
 * UCP against a local gateway without a second server (docs/agents.md's curl walk-through and its
 * MCP example send `UCP-Agent: profile="http://127.0.0.1:8080/ucp/dev/platform-profile.json"`).
 * It declares what a shopping platform declares: checkout with its fulfillment, discount and
 * buyer-consent extensions, and the order capability — of the current release, or of
 * `?version=2026-01-11`. It has no order `webhook_url` (no one listens for order webhooks), and is
 * valid against the release's platform profile schema (tested). Outside development the path is
 * not served (the UCP profile answers 404). Development fetches http:// profiles on local addresses.
 */
import type { RequestHandler } from 'express';
import type { GatewayEnv } from '../config/config.js';
import { CAPABILITIES } from './capabilities.js';
import { UCP_PREFIX, isUcpVersion, type UcpVersion } from './ucp-version.js';

export const DEV_PLATFORM_PROFILE_PATH = `${UCP_PREFIX}/dev/platform-profile.json`;

const SHOPPING = ['dev.ucp.shopping.checkout', 'dev.ucp.shopping.fulfillment', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.buyer_consent', 'dev.ucp.shopping.order'];

export function devPlatformProfile(version: UcpVersion): Record<string, unknown> {
  const base = version === '2026-01-11' ? 'https://ucp.dev' : `https://ucp.dev/${version}`;
  const capabilities = CAPABILITIES.filter((capability) => SHOPPING.includes(capability.name)).map((capability) => ({
    name: capability.name,
    version,
    spec: `${base}/specification/${capability.doc}`,
    schema: `${base}/schemas/shopping/${capability.schema}.json`,
    ...(capability.extends ? { extends: capability.extends } : {}),
  }));
  if (version === '2026-01-11') {
    // As 2026-01-11's overview shows a Platform Profile: no `services` (profile-fetcher.ts).
    return { ucp: { version, capabilities } };
  }
  return {
    ucp: {
      version,
      services: { 'dev.ucp.shopping': [{ version, spec: `${base}/specification/overview`, transport: 'rest', schema: `${base}/services/shopping/rest.openapi.json` }] },
      capabilities: Object.fromEntries(capabilities.map(({ name, ...entry }) => [name, [entry]])),
      payment_handlers: {},
    },
  };
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
