// The fault suite: heavy (its own PostgreSQL cluster and Redis, stopped and started under load),
// so it runs by its own command — `pnpm --filter @commerce-gateway/gateway test:fault` — not in `pnpm test`;
// CI (.ci/run) runs that command on every run (about 1.5 min), where a missing binary fails it.
import '../../../../tooling/node20-shims.js';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/fault/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
