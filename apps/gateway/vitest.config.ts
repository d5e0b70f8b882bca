import '../../tooling/node20-shims.js';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The fault suite stops and starts its own PostgreSQL and Redis (`pnpm test:fault`); the cluster suite
    // runs three replicas (`pnpm test:cluster`): never here.
    exclude: [...configDefaults.exclude, 'test/fault/**', 'test/cluster/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Each file boots its own database (PGlite, or a fresh PostgreSQL database); two at a time fits 2 cores.
    maxWorkers: 2,
  },
});
