import '../../tooling/node20-shims.js';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // web.vm.test.ts bundles src/web-entry.ts with tsup before it runs the bundle in a bare vm context.
    testTimeout: 20_000,
  },
});
