/**
 * A `serve` a test started does not outlive it (test/support/end-children.ts): the next test finds
 * it gone, even though the test that started it never stopped it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from './support/cli.js';

let pid: number | undefined;
const alive = (id: number) => {
  try {
    process.kill(id, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a child process a test started', () => {
  it('runs while its test runs (and is not stopped by it)', async () => {
    const served = await startServe({ DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-end-')), PORT: '0', GATEWAY_ENV: 'sandbox' });
    pid = served.child.pid!;
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
  });

  it('is ended once that test is over', () => {
    expect(pid).toBeDefined();
    expect(alive(pid!)).toBe(false);
  });
});
