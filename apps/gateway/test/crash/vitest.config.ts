// The payment crash suite (issue 36): `serve` as a child process on PAYMENT_PROVIDER=stripe against
// the Stripe double, SIGKILLed at each step of the payment path under load, restarted, settled — and
// the money checked against the PSP. It needs the built CLI (`pnpm build`) and runs by its own
// command — `pnpm --filter @commerce-gateway/gateway test:crash` — not in `pnpm test`; CI runs it.
import '../../../../tooling/node20-shims.js';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/crash/**/*.test.ts'],
    setupFiles: ['test/support/end-children.ts'],
    testTimeout: 150_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
