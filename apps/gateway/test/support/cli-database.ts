/**
 * The database a CLI test's commands run on, as an operator's would: PostgreSQL (a fresh database
 * of its own) when TEST_DATABASE_URL is set, else an embedded one in a fresh data directory. Call
 * at the top of a test file; `env()` is the environment to hand `runCli` once `beforeAll` ran.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { runCli } from './cli.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** `merchants`: created with `gateway merchants create` first (a --merchant must exist). */
export function useCliDatabase(prefix: string, { merchants = [] }: { merchants?: string[] } = {}): { env: () => Record<string, string | undefined> } {
  let db: TestDatabase | undefined;
  let env: Record<string, string | undefined> = {};
  beforeAll(async () => {
    db = await createTestDatabase();
    if (db.url) env = { DATABASE_URL: db.url };
    else {
      await db.close();
      env = { DATA_DIR: mkdtempSync(join(tmpdir(), `${prefix}-`)), DATABASE_URL: undefined };
    }
    if (merchants.length) expect(await runCli(['merchants', 'create', ...merchants], env)).toMatchObject({ code: 0 });
  }, 240_000); // one CLI process: seconds idle, minutes on a loaded two-core machine
  afterAll(async () => {
    if (db?.url) await db.close();
  });
  return { env: () => env };
}
