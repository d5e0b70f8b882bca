import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The three builds below run in parallel: clean once, here, instead of in each.
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

const common = { target: 'es2022', platform: 'neutral', sourcemap: true, clean: false } as const;

export default defineConfig([
  {
    // ESM: one file per module, so that bundlers drop what an app does not import
    // (`sideEffects: false` in package.json). ky and zod stay external.
    ...common,
    entry: ['src/**/*.ts', '!src/**/*.test.ts', '!src/testing/**'],
    format: ['esm'],
    bundle: false,
  },
  {
    // CJS: one file; ky (ESM-only) is bundled in, so `require()` works on every Node ≥ 20
    // and in CJS tools that cannot load ES modules.
    ...common,
    entry: { index: 'src/index.ts' },
    format: ['cjs'],
    noExternal: ['ky'],
    treeshake: true,
  },
  {
    // Types: one declaration file per format (index.d.ts, index.d.cts).
    ...common,
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: { only: true },
  },
]);
