import { defineConfig } from 'tsup';

/**
 * The operators' console (console/src) as one browser bundle, built into the package
 * (dist/console/console.js + console.css) and served by the gateway at /console: React, TanStack
 * Table and wouter are bundled in — nothing is fetched from elsewhere at run time.
 */
export default defineConfig({
  entry: { console: 'console/src/main.tsx' },
  outDir: 'dist/console',
  tsconfig: 'console/tsconfig.json',
  format: ['iife'],
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  clean: true,
  outExtension: () => ({ js: '.js' }),
  noExternal: [/.*/],
  define: { 'process.env.NODE_ENV': '"production"' },
  esbuildOptions(options) {
    options.jsx = 'automatic';
  },
});
