/**
 * Negotiation of every UCP request (overview.md "Negotiation Protocol", "Request-Time Validation"):
 * `UCP-Agent` is parsed first (a missing or malformed header is `invalid_profile_url`, before any
 * work); a version the header itself declares is checked at once. The platform's profile is
 * fetched only when a handler asks for it (`negotiationOf(req).profile()` — its capabilities, its
 * order webhook URL), through the guarded, cached fetcher; its `ucp.version` is then negotiated
 * (`version_unsupported` when this business does not speak it). A profile that cannot be fetched
 * fails only the requests that ask for it.
 *
 * Runs first on every UCP operation (ucp-profile.ts), before authentication.
 */
import type { Request, RequestHandler } from 'express';
import { mark, marked } from '../kernel/hidden-property.js';
import type { AgentProfile, AgentProfileFetcher } from './profile-fetcher.js';
import { parseUcpAgent, UCP_AGENT_HEADER, type UcpAgent } from './ucp-agent.js';
import { UcpError } from './ucp-error.js';
import { acceptedVersions, negotiatedVersion, type UcpVersion } from './ucp-version.js';

export interface UcpNegotiation {
  agent: UcpAgent;
  /** The release the request is processed at, as far as known: the declared one once checked, else the current one. */
  version: UcpVersion;
  /** The platform's profile with its version negotiated (fetched at the first call); throws UcpError. */
  profile(): Promise<AgentProfile>;
}

/** The request's negotiation, a hidden property of the request (../hidden-property.ts). */
const NEGOTIATION = Symbol('UCP negotiation');

/** The request's negotiation (set by ucpNegotiation). */
export function negotiationOf(req: Request): UcpNegotiation {
  const found = marked<UcpNegotiation>(req, NEGOTIATION);
  if (!found) throw new Error('ucpNegotiation() did not run for this request');
  return found;
}

export function unsupportedVersion(declared: string, current: UcpVersion): UcpError {
  const accepted = acceptedVersions(current);
  return new UcpError('version_unsupported', `Protocol version ${declared} is not supported. This business supports ${accepted.length > 1 ? 'versions' : 'version'} ${accepted.join(' and ')}.`);
}

export function ucpNegotiation(options: { current: UcpVersion; fetcher: AgentProfileFetcher }): RequestHandler {
  const { current, fetcher } = options;
  return (req, _res, next) => {
    const agent = parseUcpAgent(req.get(UCP_AGENT_HEADER));
    let version: UcpVersion = current;
    if (agent.version !== undefined) {
      const negotiated = negotiatedVersion(agent.version, current);
      if (!negotiated) throw unsupportedVersion(agent.version, current);
      version = negotiated;
    }
    let fetched: Promise<AgentProfile> | undefined;
    const negotiation: UcpNegotiation = {
      agent,
      version,
      profile: () =>
        (fetched ??= fetcher.fetch(agent.profile).then(
          (profile) => {
            const negotiated = negotiatedVersion(profile.version, current);
            if (!negotiated) throw unsupportedVersion(profile.version, current);
            negotiation.version = negotiated;
            return profile;
          },
          (error: unknown) => {
            // A malformed profile of a release we speak is refused in that release's words.
            const declared = error instanceof UcpError && error.detail.declared !== undefined ? negotiatedVersion(error.detail.declared, current) : undefined;
            if (declared && agent.version === undefined) negotiation.version = declared;
            throw error;
          },
        )),
    };
    mark(req, NEGOTIATION, negotiation);
    next();
  };
}

/** The release a request's answer is worded in: the negotiated one, or `current` before (or without) negotiation. */
export function answerVersion(req: Request, current: UcpVersion): UcpVersion {
  return marked<UcpNegotiation>(req, NEGOTIATION)?.version ?? current;
}
