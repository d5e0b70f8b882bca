/**
 * A bench's server, compiled as the gateway ships (tsup's esbuild: one ESM file for Node 20,
 * packages left to node_modules), then run with plain `node`. Under `tsx` every function
 * expression is wrapped to keep its name (`keepNames`), a per-call cost production never pays
 * and a CPU profile shows in every middleware.
 *
 * The file is written beside `apps/gateway/dist/cli.js`, so that what the gateway finds relative
 * to its own module (the contract, the Prisma client's files, the data directory) resolves as in
 * a built gateway.
 */
import { build } from 'esbuild';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/**
 * Compiles `entry` (a .ts file) and answers the path of the JavaScript to run. `checkout`: the
 * repository the entry belongs to (another checkout, for a baseline), this one by default.
 */
export async function bundleForNode(entry: string, checkout: string = root): Promise<string> {
  const outfile = join(checkout, 'apps/gateway/dist', `bench-${basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return outfile;
}
