/**
 * One real gateway for every e2e file of this package: `serve` on a fresh embedded database
 * (which seeds merchant `demo` with the demo catalog and prints a development key), then — with
 * the server stopped, since PGlite belongs to one process — `keys create` for the keys the tests
 * need, then `serve` again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { assertGatewayBuilt, runCli, startServe } from './gateway-process.js';
import type { GatewayUnderTest } from './gateway-under-test.js';

const lastLine = (text: string) => text.trim().split('\n').at(-1)!.trim();
const HIGH_LIMITS = ['--tier', 'enterprise', '--rpm', '1000000', '--rpd', '100000000'];

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertGatewayBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'sdk-e2e-'));

  const first = await startServe(dataDir);
  const devKey = /Development API key[^\n]*?(sk_dev_\S+)/.exec(first.stdout())?.[1];
  await first.stop();
  if (!devKey) throw new Error(`serve on a fresh database printed no development key:\n${first.stdout()}`);

  const main = lastLine(await runCli(['keys', 'create', '--merchant', 'demo', ...HIGH_LIMITS], dataDir));
  const limited = lastLine(await runCli(['keys', 'create', '--merchant', 'demo', '--tier', 'enterprise', '--rpm', '1', '--rpd', '1000'], dataDir));
  await runCli(['merchants', 'create', 'shop2'], dataDir); // a --merchant must exist
  const signedOutput = await runCli(['keys', 'create', '--merchant', 'demo,shop2', ...HIGH_LIMITS, '--signing-secret'], dataDir);
  const signingSecret = /signing secret: (\S+)/.exec(signedOutput)?.[1];
  if (!signingSecret) throw new Error(`keys create --signing-secret printed no secret:\n${signedOutput}`);

  const gateway = await startServe(dataDir);
  const provided: GatewayUnderTest = { url: gateway.url, devKey, keys: { main, limited, signed: lastLine(signedOutput) }, signingSecret };
  project.provide('gateway', provided);

  return async () => {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
