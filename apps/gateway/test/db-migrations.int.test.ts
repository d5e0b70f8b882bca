/**
 * Migrating a database that is up to date loads nothing and touches nothing (db/migrations.ts,
 * migrationsUpToDate): the committed migrations are compared with Prisma's history table and the
 * schema engine is loaded only when something is to be applied — a fresh database still gets every
 * migration, and a history the files do not match (a migration pending, failed or unknown) still goes
 * to the engine, which answers as before. On PostgreSQL when TEST_DATABASE_URL is set, else on PGlite.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { migrationNames, migrationsUpToDate } from '../src/db/migrations.js';
import { migrationsDir } from '../src/db/paths.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const engine = vi.hoisted(() => ({ opened: 0 }));
vi.mock('../src/db/schema-engine.js', async (original) => {
  const actual = await original<typeof import('../src/db/schema-engine.js')>();
  return {
    ...actual,
    openSchemaEngine: (...args: Parameters<typeof actual.openSchemaEngine>) => {
      engine.opened++;
      return actual.openSchemaEngine(...args);
    },
  };
});

interface HistoryRow {
  id: string;
  name: string;
  checksum: string;
  started: string;
  finished: string | null;
}
const history = (db: TestDatabase) =>
  db.sql.query<HistoryRow>(Prisma.sql`
    SELECT id, migration_name AS name, checksum, started_at::text AS started, finished_at::text AS finished
    FROM _prisma_migrations ORDER BY migration_name, started_at`);

let db: TestDatabase;
let scratch: string;
beforeAll(async () => {
  db = await createTestDatabase();
  scratch = await mkdtemp(join(tmpdir(), 'gw-migrations-'));
});
afterAll(async () => {
  await db?.close();
  await rm(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  engine.opened = 0;
});

/** A copy of the committed migrations, changed by `edit`, for a history that no longer matches the files. */
async function migrationsCopy(name: string, edit: (dir: string) => Promise<void>): Promise<string> {
  const dir = join(scratch, name);
  await cp(migrationsDir, dir, { recursive: true });
  await edit(dir);
  return dir;
}

describe('migrating', () => {
  it('an up-to-date database: nothing applied, the engine never loaded, the history untouched', async () => {
    const before = await history(db);
    expect(before.map((row) => row.name)).toEqual(await migrationNames());
    expect(await migrationsUpToDate(db.sql)).toBe(true);
    expect(await db.migrate()).toEqual([]);
    expect(engine.opened).toBe(0);
    expect(await history(db)).toEqual(before);
  });

  it('a fresh database: every committed migration is applied by the engine, and then it is up to date', async () => {
    const fresh = await openDatabase({ dataDir: null });
    try {
      expect(await migrationsUpToDate(fresh.sql)).toBe(false); // no history table yet
      expect(await fresh.migrate()).toEqual(await migrationNames());
      expect(engine.opened).toBe(1);
      expect(await migrationsUpToDate(fresh.sql)).toBe(true);
      expect(await fresh.migrate()).toEqual([]);
      expect(engine.opened).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('a committed migration missing from the history is pending; one the files do not know is left to the engine', async () => {
    const pending = await migrationsCopy('pending', async (dir) => {
      await cp(join(dir, (await migrationNames())[0]!), join(dir, '99991231235959_pending'), { recursive: true });
    });
    expect(await migrationsUpToDate(db.sql, pending)).toBe(false);
    const unknown = await migrationsCopy('unknown', async (dir) => {
      await rm(join(dir, (await migrationNames()).at(-1)!), { recursive: true });
    });
    expect(await migrationsUpToDate(db.sql, unknown)).toBe(false);
  });

  it('a failed migration in the history goes to the engine, which refuses as it always did', async () => {
    const failed = '20000101000000_failed';
    await db.sql.execute(Prisma.sql`
      INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
      VALUES ('00000000-0000-4000-8000-000000000001', 'x', ${failed}, now(), 0)`);
    try {
      expect(await migrationsUpToDate(db.sql)).toBe(false);
      await expect(db.migrate()).rejects.toThrow(/failed/i);
      expect(engine.opened).toBe(1);
      // Resolved as rolled back (`prisma migrate resolve --rolled-back`): as if it had never run.
      await db.sql.execute(Prisma.sql`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = ${failed}`);
      expect(await migrationsUpToDate(db.sql)).toBe(true);
    } finally {
      await db.sql.execute(Prisma.sql`DELETE FROM _prisma_migrations WHERE migration_name = ${failed}`);
    }
  });
});
