import '../../tooling/node20-shims.js';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Each file boots its own database (PGlite, or a fresh PostgreSQL database); two at a time fits 2 cores.
    maxWorkers: 2,
  },
});
