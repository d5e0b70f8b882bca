/**
 * The UCP releases this gateway speaks, oldest first (config's UCP_RELEASES, which UCP_VERSION is
 * checked against), each with its implementation (release.ts says what one provides). The table
 * must name an implementation for every release config lists: TypeScript refuses it otherwise.
 *
 *   const release = releaseOf(negotiation.version);
 *   res.json({ ucp: release.envelope([CAPABILITY.checkout]), … });
 */
import { UCP_RELEASES } from '../../config/config.js';
import { release2026_01_11 } from './2026-01-11/release.js';
import { release2026_04_08 } from './2026-04-08/release.js';
import type { Release, UcpVersion } from './release.js';

const RELEASES: Readonly<Record<UcpVersion, Release>> = {
  '2026-01-11': release2026_01_11,
  '2026-04-08': release2026_04_08,
};

/** The releases spoken, oldest first. */
export const UCP_VERSIONS = UCP_RELEASES;

export const isUcpVersion = (value: string): value is UcpVersion => (UCP_VERSIONS as readonly string[]).includes(value);

/** The release of `version`. */
export function releaseOf(version: UcpVersion): Release {
  return RELEASES[version];
}

/** Every release spoken, oldest first. */
export const releases = (): Release[] => UCP_VERSIONS.map(releaseOf);

/** The newest release spoken. */
export const newestRelease = (): Release => releaseOf(UCP_VERSIONS[UCP_VERSIONS.length - 1]!);

/** The release of `version` when it is one spoken, else the newest (what a record of an unknown release is shown at). */
export const knownOrNewest = (version: string | null | undefined): Release => (version && isUcpVersion(version) ? releaseOf(version) : newestRelease());

/** The first release that defines `capability`. */
export function releaseDefining(capability: string): Release {
  const found = releases().find((release) => release.capabilities.includes(capability));
  if (!found) throw new Error(`No UCP release spoken defines ${capability}`);
  return found;
}
