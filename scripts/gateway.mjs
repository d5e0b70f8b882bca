#!/usr/bin/env node
// `pnpm gateway <command>` / `npm run gateway -- <command>`: installs and builds only when needed
// (scripts/lib/workspace.mjs), then runs the built CLI in this process — no turbo, no second Node.
import { pathToFileURL } from 'node:url';
import { cliPath, ensureBuilt, ensureInstalled } from './lib/workspace.mjs';

ensureInstalled();
ensureBuilt();
process.argv = [process.argv[0], cliPath, ...process.argv.slice(2)];
await import(pathToFileURL(cliPath).href);
