/**
 * The ESM build in a fetch-only runtime: dist/index.js bundled for the browser (with ky and zod)
 * and run in a vm context that holds Web APIs only — fetch, Web Crypto, URL, timers — and no
 * require, process, Buffer or node: modules. It calls the real gateway, signed requests included.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Sdk from '../src/index.js';
import { gatewayUnderTest } from './support/gateway-under-test.js';

const { url, keys, signingSecret } = gatewayUnderTest();
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(packageDir, 'dist/index.js');
const outDir = mkdtempSync(join(tmpdir(), 'sdk-fetch-only-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const WEB_GLOBALS = {
  fetch, Request, Response, Headers, FormData, Blob, ReadableStream, AbortController, AbortSignal, DOMException,
  URL, URLSearchParams, TextEncoder, TextDecoder, crypto, btoa, atob, setTimeout, clearTimeout, queueMicrotask,
  structuredClone, performance, console, Event, EventTarget,
};

let sdk: typeof Sdk;
let context: vm.Context;

beforeAll(async () => {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the package first (pnpm --filter @commerce-gateway/sdk build)`);
  await build({
    config: false,
    silent: true,
    entry: { sdk: entry },
    outDir,
    format: ['cjs'],
    platform: 'browser',
    target: 'es2022',
    noExternal: [/.*/],
    splitting: false,
    sourcemap: false,
    dts: false,
    clean: false,
  });
  context = vm.createContext({ ...WEB_GLOBALS });
  const module = { exports: {} as typeof Sdk };
  vm.runInContext(`(function (module, exports) {\n${readFileSync(join(outDir, 'sdk.cjs'), 'utf8')}\n})`, context)(module, module.exports);
  sdk = module.exports;
}, 60_000);

describe('the SDK in a fetch-only runtime', () => {
  it('has no require, process or Buffer to lean on', () => {
    expect(vm.runInContext('[typeof require, typeof process, typeof Buffer, typeof crypto.subtle]', context)).toEqual(['undefined', 'undefined', 'undefined', 'object']);
  });

  it('bundles for the browser with no node: import', () => {
    expect(readFileSync(join(outDir, 'sdk.cjs'), 'utf8')).not.toMatch(/\brequire\s*\(\s*["']node:|\bfrom\s*["']node:/);
  });

  it('searches, pages and maps errors', async () => {
    const gw = new sdk.CommerceGateway({ apiKey: keys.main, baseUrl: url });
    const page = await gw.products.search({ category: 'chairs', page_size: 2 });
    expect(page.items).toHaveLength(2);
    const error = await gw.products.retrieve('no-such-product').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('signs requests with Web Crypto', async () => {
    const gw = new sdk.CommerceGateway({ apiKey: keys.signed, signingSecret, merchantId: 'demo', baseUrl: url });
    const [product] = (await gw.products.search({ category: 'chairs', page_size: 1 })).items;
    const session = await gw.checkoutSessions.create({ items: [{ product_id: product!.id }], customer: { name: 'Zoë' } });
    expect(session.status).toBe('open');
  });
});
