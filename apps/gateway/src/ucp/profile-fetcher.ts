/**
 * Platform profiles, fetched when a handler first needs one and kept in a bounded in-memory cache
 * (overview.md "Fetching": a fixed-size cache, a TTL floor of 60 s whatever the origin's
 * Cache-Control, backoff on repeated failures). A profile is kept for its Cache-Control `max-age`
 * (`s-maxage` first), at least 60 s and at most an hour; the least recently used goes first when
 * the cache is full. A failure is remembered for a few seconds, so that a slow or broken profile
 * host is not asked again by every request; concurrent requests for one URL share one fetch.
 * A fetched profile must be JSON with `ucp.version`; of a release we speak it must also match
 * that release's platform profile schema — else `profile_malformed`. Whether its version is
 * accepted is negotiation's question (negotiation.ts), not the cache's.
 *
 * Deviation (the official documents contradict each other; agents send what the prose shows):
 * 2026-01-11's profile schema requires `ucp.services`, but its overview's Platform Profile example
 * has none, and platforms copy the overview. A 2026-01-11 platform profile without `ucp.services`
 * is validated as if it declared none (`{}`); everything else of the schema still applies.
 */
import { PROFILES_PUBLIC_ONLY, requestProfile, type ProfileRequestPolicy } from './profile-request.js';
import { describeProblem, ucpProfileValidator } from './ucp-schemas.js';
import { UcpError } from './ucp-error.js';
import { releaseOf } from './releases/releases.js';
import { isUcpVersion, type UcpVersion } from './ucp-version.js';
import { OutboundClient } from '../kernel/outbound/outbound-client.js';
import type { Resolver } from '../kernel/outbound/safe-target.js';

export interface AgentProfile {
  url: string;
  /** Its `ucp.version`, as declared. */
  version: string;
  document: Record<string, unknown> & { ucp: Record<string, unknown> };
}

export interface ProfileFetcherOptions {
  allowPrivateTargets: boolean;
  /** Fetch http:// profiles too (development and tests; production fetches https only). */
  allowHttp?: boolean;
  /** Deadline of one fetch, DNS included (default 3 s). */
  timeoutMs?: number;
  /** Largest profile read (default 256 KiB). */
  maxBytes?: number;
  /** Profiles kept at most (default 1,000). */
  maxEntries?: number;
  /** How long a failure is answered from memory (default 5 s; 0: never). */
  failureTtlMs?: number;
  resolve?: Resolver;
  now?: () => number;
}

export const MIN_TTL_MS = 60_000;
export const MAX_TTL_MS = 3_600_000;

type Entry = { expires: number } & ({ profile: AgentProfile } | { error: UcpError });

/** The freshness a Cache-Control grants, clamped to [60 s, 1 h]. */
export function ttlOf(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '').toLowerCase();
  const seconds = /(?:^|[,\s])s-maxage\s*=\s*"?(\d+)/.exec(directives)?.[1] ?? /(?:^|[,\s])max-age\s*=\s*"?(\d+)/.exec(directives)?.[1];
  const ms = seconds === undefined ? 0 : Number(seconds) * 1000;
  return Math.min(Math.max(ms, MIN_TTL_MS), MAX_TTL_MS);
}

/** The document validated: a 2026-01-11 profile without `ucp.services` as one that declares none (see above; releases/: `schemas.platformServicesOptional`). */
function asPublished(version: UcpVersion, document: AgentProfile['document']): AgentProfile['document'] {
  if (!releaseOf(version).schemas.platformServicesOptional || 'services' in document.ucp) return document;
  return { ...document, ucp: { ...document.ucp, services: {} } };
}

function parseProfile(url: string, text: string): AgentProfile {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new UcpError('profile_malformed', `The platform profile at ${url} is not JSON`);
  }
  const ucp = (document as { ucp?: unknown } | null)?.ucp;
  const version = (ucp as { version?: unknown } | undefined)?.version;
  if (typeof document !== 'object' || document === null || Array.isArray(document) || typeof ucp !== 'object' || ucp === null || typeof version !== 'string') {
    throw new UcpError('profile_malformed', `The platform profile at ${url} has no ucp.version`);
  }
  if (isUcpVersion(version)) {
    const validate = ucpProfileValidator(version, 'platform');
    if (!validate(asPublished(version, document as AgentProfile['document']))) {
      throw new UcpError('profile_malformed', `The platform profile at ${url} breaks the UCP ${version} profile schema: ${describeProblem(validate)}`, undefined, {}, { declared: version });
    }
  }
  return { url, version, document: document as AgentProfile['document'] };
}

export class AgentProfileFetcher {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<AgentProfile>>();
  private readonly policy: ProfileRequestPolicy;
  private readonly client: OutboundClient;
  private readonly now: () => number;

  constructor(private readonly options: ProfileFetcherOptions) {
    this.policy = { allowHttp: options.allowHttp ?? false, timeoutMs: options.timeoutMs ?? 3_000, maxBytes: options.maxBytes ?? 256 * 1024 };
    this.client = new OutboundClient({
      allowPrivate: options.allowPrivateTargets,
      publicOnly: PROFILES_PUBLIC_ONLY,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    this.now = options.now ?? Date.now;
  }

  /** The profile at `url`, from the cache while fresh; throws UcpError. */
  async fetch(url: string): Promise<AgentProfile> {
    const cached = this.entries.get(url);
    if (cached && cached.expires > this.now()) {
      this.entries.delete(url); // most recently used last
      this.entries.set(url, cached);
      if ('error' in cached) throw cached.error;
      return cached.profile;
    }
    const running = this.inFlight.get(url);
    if (running) return running;
    const fetching = this.load(url).finally(() => this.inFlight.delete(url));
    this.inFlight.set(url, fetching);
    return fetching;
  }

  /** How many profiles (and remembered failures) are held. */
  get size(): number {
    return this.entries.size;
  }

  private async load(url: string): Promise<AgentProfile> {
    try {
      const { text, cacheControl } = await requestProfile(this.client, url, this.policy);
      const profile = parseProfile(url, text);
      this.remember(url, { profile, expires: this.now() + ttlOf(cacheControl) });
      return profile;
    } catch (error) {
      const failureTtl = this.options.failureTtlMs ?? 5_000;
      if (error instanceof UcpError && failureTtl > 0) this.remember(url, { error, expires: this.now() + failureTtl });
      else this.entries.delete(url);
      throw error;
    }
  }

  private remember(url: string, entry: Entry): void {
    this.entries.delete(url);
    this.entries.set(url, entry);
    const max = this.options.maxEntries ?? 1_000;
    while (this.entries.size > max) this.entries.delete(this.entries.keys().next().value!);
  }
}
