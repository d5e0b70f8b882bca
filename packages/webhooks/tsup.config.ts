import { defineConfig } from 'tsup';

export default defineConfig({
  // `web` is the edge entry: the Web Crypto flavour, the header helpers and the error — no node:crypto.
  entry: { index: 'src/index.ts', web: 'src/web-entry.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: ['node20', 'es2022'],
  // Keep `node:crypto` as written: an unprefixed `crypto` import can resolve to a userland polyfill.
  removeNodeProtocol: false,
});
