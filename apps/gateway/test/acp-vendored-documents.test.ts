/**
 * The official ACP documents are vendored unmodified in openapi/acp/ (Apache-2.0, with LICENSE
 * and NOTICE), so that a clean clone validates against them without network. Where the official
 * copy is at hand (`ACP_OFFICIAL_DIR`, or `../shared/acp` beside the repository or its worktree
 * folder, as on the project's machines and CI), every file must be identical: a drift fails here.
 * In CI a missing official copy fails too (support/official-acp.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpValidator } from '../src/acp/acp-schemas.js';
import { maySkipDriftCheck, officialAcpCandidates, officialAcpDir as official, repoRoot } from './support/official-acp.js';

const vendored = join(repoRoot, 'openapi', 'acp');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('the vendored ACP 2026-04-17 documents', () => {
  it('carry the licence and notice, and the schemas the gateway validates with', () => {
    expect(readFileSync(join(vendored, 'LICENSE'), 'utf8')).toContain('Apache License');
    expect(readFileSync(join(vendored, 'NOTICE'), 'utf8')).toMatch(/OpenAI|Stripe/);
    for (const name of ['CheckoutSession', 'CheckoutSessionWithOrder', 'CheckoutSessionCreateRequest', 'CheckoutSessionUpdateRequest', 'CheckoutSessionCompleteRequest', 'CancelSessionRequest', 'Error', 'DiscoveryResponse']) {
      expect(typeof acpValidator(name)).toBe('function');
    }
  });

  it.skipIf(maySkipDriftCheck)('are byte for byte the official ones (no drift, nothing missing, nothing added)', () => {
    expect(official, `no official ACP copy at ${officialAcpCandidates.join(', ')} (set ACP_OFFICIAL_DIR)`).toBeDefined();
    const theirs = files(official!).map((path) => relative(official!, path)).sort();
    const ours = files(vendored).map((path) => relative(vendored, path)).sort();
    expect(ours).toEqual(theirs);
    for (const path of theirs) {
      expect(readFileSync(join(vendored, path)).equals(readFileSync(join(official!, path))), `openapi/acp/${path} differs from ${join(official!, path)}`).toBe(true);
    }
  });

  it('say where the official copy was looked for when it is absent', () => {
    if (!official) console.warn(`ACP drift check skipped: no official copy at ${officialAcpCandidates.join(', ')} (set ACP_OFFICIAL_DIR)`);
    expect(dirname(vendored)).toBe(join(repoRoot, 'openapi'));
  });
});
