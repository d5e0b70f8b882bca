/**
 * Where the official ACP documents are, to check the vendored copies against: `ACP_OFFICIAL_DIR`,
 * or `shared/acp` beside the repository (or beside its worktree's folder), as on the project's
 * machines and in CI. In CI (`CI=true`) a missing copy fails the drift checks instead of skipping them.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../../src/db/paths.js';

export const repoRoot = resolve(packageRoot, '..', '..');

export const officialAcpCandidates = [process.env.ACP_OFFICIAL_DIR, join(repoRoot, '..', 'shared', 'acp'), join(repoRoot, '..', '..', 'shared', 'acp')].filter(
  (dir): dir is string => !!dir,
);

/** The folder holding `2026-04-17/`, LICENSE and NOTICE, or undefined. */
export const officialAcpDir = officialAcpCandidates.find((dir) => existsSync(join(dir, '2026-04-17')));

/** Whether a drift check may be skipped for want of the official copy: never in CI. */
export const maySkipDriftCheck = !officialAcpDir && process.env.CI !== 'true';
