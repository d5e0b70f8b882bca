// The embedded database's pass: `npm start` runs on PGlite, and `pnpm test` runs every database test on
// PostgreSQL when TEST_DATABASE_URL is set (as in CI). This pass runs the database suites — every
// *.int.test.ts — and the files with paths of PGlite's own (its single connection, its data directory
// held by one process and taken over after a crash, `serve` on the embedded defaults) on PGlite,
// whatever TEST_DATABASE_URL says: `pnpm --filter @commerce-gateway/gateway test:pglite` (CI runs it).
import '../../../../tooling/node20-shims.js';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: [
      'test/**/*.int.test.ts',
      'test/catalog-read-model.e2e.test.ts',
      'test/edge-key-directory.e2e.test.ts',
      'test/idempotency-crash.e2e.test.ts',
      'test/cli.e2e.test.ts',
      'test/customer-limits-every-protocol.e2e.test.ts', // a per-customer limit across protocols, on PGlite too
      'test/customers-erasure-every-protocol.e2e.test.ts', // erasure by customer id (the CLI's case needs PostgreSQL)
    ],
    env: { TEST_DATABASE_URL: '' }, // test/support/test-database.ts: an in-memory PGlite per file
  },
});
