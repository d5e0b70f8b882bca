import '../../tooling/node20-shims.js';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The e2e files mostly wait on the gateway (one waits a minute for a rate-limit window):
    // run more of them at once than there are cores.
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'] },
      },
      {
        // The READMEs' TypeScript snippets compiled as written (no gateway needed).
        extends: true,
        test: { name: 'readme', include: ['test/**/*.readme.test.ts'], testTimeout: 60_000 },
      },
      {
        // A real gateway, spawned once from apps/gateway/dist (built by turbo before `test`)
        // on a fresh embedded database; see test/support/global-setup.ts.
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
