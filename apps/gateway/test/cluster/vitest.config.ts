// The cluster suite: three real `gateway serve` processes over one PostgreSQL database and one Redis,
// behind a round-robin proxy. Heavy, so it runs by its own command —
// `pnpm --filter @commerce-gateway/gateway test:cluster` — never in `pnpm test`.
import '../../../../tooling/node20-shims.js';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/cluster/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
