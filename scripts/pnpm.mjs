#!/usr/bin/env node
// Lets `npm test` work on a machine with only Node and npm: runs the pinned pnpm (from
// package.json's packageManager) — the one already running us when called through pnpm, else
// through npx — installs the workspace when needed, then runs the given pnpm command.
//
//   node scripts/pnpm.mjs exec turbo run test
import { ensureInstalled, pnpm } from './lib/workspace.mjs';

ensureInstalled();
process.exit(pnpm(process.argv.slice(2)));
