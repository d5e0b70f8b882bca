import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'tsup';
import { afterAll, describe, expect, it } from 'vitest';
import type * as WebEntry from './web-entry.js';
import { describeAcpVerifier } from './acp.contract.js';
import { describeVerifier } from './verify.contract.js';

// The edge entry, bundled afresh from the sources and run where only Web APIs exist: a vm context
// holding crypto, TextEncoder and TextDecoder — no require, process, Buffer or node: modules.
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = mkdtempSync(join(tmpdir(), 'webhooks-web-bundle-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

await build({
  config: false,
  silent: true,
  entry: { web: join(packageDir, 'src/web-entry.ts') },
  tsconfig: join(packageDir, 'tsconfig.json'),
  outDir,
  format: ['esm', 'cjs'],
  platform: 'browser',
  target: 'es2022',
  splitting: false,
  sourcemap: false,
  dts: false,
  clean: false,
});
const esm = readFileSync(join(outDir, 'web.js'), 'utf8');
const cjs = readFileSync(join(outDir, 'web.cjs'), 'utf8');

const context = vm.createContext({ crypto: globalThis.crypto, TextEncoder, TextDecoder });
const module = { exports: {} as typeof WebEntry };
vm.runInContext(`(function (module, exports) {\n${cjs}\n})`, context)(module, module.exports);
const web = module.exports;

const NODE_IMPORT = /\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\brequire\s*\(/;

describe('the web entry in a Web-Crypto-only runtime', () => {
  it('has no require, process or Buffer in its global scope', () => {
    expect(vm.runInContext('[typeof require, typeof process, typeof Buffer, typeof crypto.subtle]', context)).toEqual([
      'undefined', 'undefined', 'undefined', 'object',
    ]);
  });

  it('bundles to code with no imports at all, so no node: module', () => {
    expect(esm).not.toMatch(NODE_IMPORT);
    expect(esm).not.toMatch(/^\s*import\s/m);
    expect(cjs).not.toMatch(NODE_IMPORT);
  });

  it('signs and verifies a round trip', async () => {
    const body = '{"id":"evt_1","type":"order.created","created":"2023-11-14T22:13:20Z","data":{"object":{"n":"é"}}}';
    const header = await web.signAsync(body, 'whsec_vm', { timestamp: 1_700_000_000 });
    const event = await web.verifyAsync(body, header, 'whsec_vm', { now: () => 1_700_000_000_000 });
    expect(event.data.object).toEqual({ n: 'é' });
    await expect(web.verifyAsync(`${body} `, header, 'whsec_vm', { now: () => 1_700_000_000_000 })).rejects.toMatchObject({
      name: 'WebhookVerificationError',
      reason: 'signature_mismatch',
    });
  });

  // What edge bundlers actually consume: dist/web.js and the chunks it imports (present after `build`).
  const built = join(packageDir, 'dist/web.js');
  it.skipIf(!existsSync(built))('the built dist/web.js imports nothing but its own chunks', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      expect(code, file).not.toMatch(/\brequire\s*\(|\bimport\s*\(/);
      const imports = code.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm);
      for (const [, from, bare] of imports) {
        const spec = (from ?? bare)!;
        expect(spec, `${file} imports ${spec}`).toMatch(/^\.\//);
        visit(join(dirname(file), spec));
      }
    };
    visit(built);
    expect(seen.size).toBeGreaterThan(0);
  });
});

describeVerifier('Web Crypto flavour, bundled, in a vm context', {
  sign: (payload, secret, options) => web.signAsync(payload as string, secret, options),
  verify: (payload, header, secret, options) => web.verifyAsync(payload as string, header, secret, options),
  generateTestHeader: web.generateTestHeaderAsync,
  ErrorClass: web.WebhookVerificationError,
});

describeAcpVerifier('Web Crypto flavour, bundled, in a vm context', {
  sign: (payload, secret, options) => web.signAcpAsync(payload as string, secret, options),
  verify: (payload, header, secret, options) => web.verifyAcpAsync(payload as string, header, secret, options),
  ErrorClass: web.WebhookVerificationError,
});
