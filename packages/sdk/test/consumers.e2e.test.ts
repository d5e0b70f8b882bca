/**
 * What a merchant installs: the package packed with `npm pack`, installed with `npm install` into
 * a tiny ESM project and a tiny CommonJS project (test/consumers/), each calling the real gateway
 * with the development key `serve` printed. Each build's error classes are checked with its own
 * module format. ky and zod come from the npm registry.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayUnderTest } from './support/gateway-under-test.js';

const run = promisify(execFile);
const { url, devKey } = gatewayUnderTest();
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');
const workDir = mkdtempSync(join(tmpdir(), 'sdk-consumers-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } });

beforeAll(async () => {
  const { stdout } = await npm(['pack', '--pack-destination', workDir], packageDir);
  const tarball = join(workDir, stdout.trim().split('\n').at(-1)!);
  await Promise.all(
    ['esm', 'cjs'].map(async (kind) => {
      cpSync(join(here, 'consumers', kind), join(workDir, kind), { recursive: true });
      await npm(['install', '--prefer-offline', '--no-package-lock', tarball], join(workDir, kind));
    }),
  );
}, 180_000);

async function consumer(kind: 'esm' | 'cjs'): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['main.js'], { cwd: join(workDir, kind), env: { ...process.env, GATEWAY_URL: url, GATEWAY_API_KEY: devKey } });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

describe('the packed package', () => {
  it('works from an ESM project (import → dist/index.js)', async () => {
    const seen = await consumer('esm');
    expect(seen).toMatchObject({ products: 3, notFound: true, notAllowed: true });
    expect(seen.resolved).toMatch(/node_modules\/@commerce-gateway\/sdk\/dist\/index\.js$/);
    expect(seen.session).toMatch(/^cs_/);
  });

  it('works from a CommonJS project (require → dist/index.cjs, ky bundled in)', async () => {
    const seen = await consumer('cjs');
    expect(seen).toMatchObject({ products: 3, notFound: true, notAllowed: true, kyRequired: false });
    expect(seen.resolved).toMatch(/node_modules\/@commerce-gateway\/sdk\/dist\/index\.cjs$/);
    expect(seen.session).toMatch(/^cs_/);
  });
});
