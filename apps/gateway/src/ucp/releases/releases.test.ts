import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../capabilities.js';
import { ucpSchemaDir } from '../ucp-schemas.js';
import { knownOrNewest, newestRelease, releaseDefining, releaseOf, releases, UCP_VERSIONS } from './releases.js';

describe('the UCP releases', () => {
  it('has one implementation per release spoken, each under its own version', () => {
    expect(releases().map((release) => release.version)).toEqual([...UCP_VERSIONS]);
    for (const version of UCP_VERSIONS) expect(releaseOf(version).version).toBe(version);
    expect(newestRelease().version).toBe(UCP_VERSIONS[UCP_VERSIONS.length - 1]);
    expect(knownOrNewest('1999-01-01')).toBe(newestRelease());
    expect(knownOrNewest(null)).toBe(newestRelease());
    expect(knownOrNewest(UCP_VERSIONS[0])).toBe(releaseOf(UCP_VERSIONS[0]));
  });

  it.each(UCP_VERSIONS)('%s names only documents it vendors and capabilities the gateway knows', (version) => {
    const release = releaseOf(version);
    const root = ucpSchemaDir(version);
    for (const file of [`services/shopping/${release.rest.binding}`, release.mcp.openRpc, ...release.schemas.extraFiles]) expect(existsSync(join(root, file)), file).toBe(true);
    const known = new Set(CAPABILITIES.map((capability) => capability.name));
    for (const name of release.capabilities) expect(known.has(name), name).toBe(true);
  });

  it('finds the first release that defines a capability', () => {
    expect(releaseDefining('dev.ucp.shopping.checkout')).toBe(releaseOf(UCP_VERSIONS[0]));
    expect(() => releaseDefining('dev.ucp.shopping.unknown')).toThrow(/No UCP release/);
  });
});
