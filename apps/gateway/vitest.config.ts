import '../../tooling/node20-shims.js';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The fault suite stops and starts its own PostgreSQL and Redis (`pnpm test:fault`); the cluster suite
    // runs three replicas (`pnpm test:cluster`); the crash suite kills `serve` mid-payment (`pnpm test:crash`): never here.
    exclude: [...configDefaults.exclude, 'test/fault/**', 'test/cluster/**', 'test/crash/**'],
    // A child a test started (`serve`, a CLI command) is ended after that test, whatever became of it.
    setupFiles: ['test/support/end-children.ts'],
    // Limits from measured durations: the slowest tests (a `serve` started on the embedded defaults,
    // SIGTERM drains) take 10–25 s on an idle 2-core machine and up to 2–3× that while other work
    // shares it; a test of its own sets more where it starts several processes.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // A condition polled for (a NOTIFY heard, a status refreshed) holds within milliseconds idle; the
    // deadline is for a busy machine, not a figure asserted.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    pool: 'forks',
    // Each file boots its own database (PGlite, or a fresh PostgreSQL database) and works the CPU:
    // one file per core (turbo runs the packages' suites one after another: see the root package.json).
    maxWorkers: Math.max(1, availableParallelism()),
  },
});
