/**
 * Set up for every test file (vitest.config.ts): a child process started by a test is ended
 * after it — whether it passed, failed or ran out of time — and one started by a beforeAll after
 * the file. A `serve` left running would hold its port, its data directory and a core while the
 * rest of the suite runs.
 */
import { afterAll, afterEach, beforeEach } from 'vitest';
import { endChildren, testRunning } from './cli.js';

beforeEach(() => {
  testRunning.now = true;
});
afterEach(async () => {
  testRunning.now = false;
  await endChildren((startedByTest) => startedByTest);
});
afterAll(async () => {
  await endChildren(() => true);
});
