import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import { migrationsDir, schemaPath } from './paths.js';
import type { Sql } from './sql.js';
import { sql } from './statement.js';

const LOCKFILE = 'migration_lock.toml';

/** The names of the committed migrations (their directories), oldest first. */
export async function migrationNames(baseDir = migrationsDir): Promise<string[]> {
  const entries = await readdir(baseDir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

/** The committed migrations, in Prisma's standard `prisma/migrations/` layout. */
export async function readMigrations(baseDir = migrationsDir): Promise<MigrationList> {
  const names = await migrationNames(baseDir);
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: await readFile(join(baseDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  const lockContent = await readFile(join(baseDir, LOCKFILE), 'utf8').catch(() => null);
  return {
    baseDir,
    shadowDbInitScript: '',
    lockfile: { path: LOCKFILE, content: lockContent },
    migrationDirectories,
  };
}

export async function readSchema(): Promise<{ path: string; content: string }> {
  return { path: schemaPath, content: await readFile(schemaPath, 'utf8') };
}

/**
 * True when the database's history (Prisma's `_prisma_migrations`) holds exactly the committed
 * migrations, each finished, none failed or under way: the schema engine would apply nothing, so
 * it need not be loaded (its WASM, the schema and its own reading of the history cost about half a
 * second, most of a CLI command on the embedded database). Anything else — no history yet, a
 * migration pending, one that failed or that another process is applying (a row not finished), one
 * the files do not know — is for the engine, which decides exactly as before: false.
 */
export async function migrationsUpToDate(db: Sql, baseDir = migrationsDir): Promise<boolean> {
  const [history] = await db.query<{ present: boolean }>(sql`SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS present`);
  if (!history?.present) return false;
  const rows = await db.query<{ name: string; finished: boolean; rolledBack: boolean }>(sql`
    SELECT migration_name AS name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS "rolledBack"
    FROM public._prisma_migrations`);
  const applied = new Set<string>();
  for (const row of rows) {
    if (row.rolledBack) continue; // resolved as rolled back: as if never applied
    if (!row.finished) return false; // failed, or being applied now
    applied.add(row.name);
  }
  const committed = await migrationNames(baseDir);
  return applied.size === committed.length && committed.every((name) => applied.has(name));
}

/** Applies every committed migration not yet applied; returns the names applied now. */
export async function applyMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  // Loaded only when migrations are applied (see migrationsUpToDate): the engine is the costly part.
  const { noFilters, openSchemaEngine } = await import('./schema-engine.js');
  const engine = await openSchemaEngine(adapterFactory, await readSchema());
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: await readMigrations(),
      filters: noFilters,
    });
    return appliedMigrationNames;
  } finally {
    engine.free();
  }
}
