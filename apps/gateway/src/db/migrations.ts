import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import { migrationsDir, schemaPath } from './paths.js';
import { noFilters, openSchemaEngine } from './schema-engine.js';

const LOCKFILE = 'migration_lock.toml';

/** The committed migrations, in Prisma's standard `prisma/migrations/` layout. */
export async function readMigrations(baseDir = migrationsDir): Promise<MigrationList> {
  const entries = await readdir(baseDir, { withFileTypes: true }).catch(() => []);
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
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

/** Applies every committed migration not yet applied; returns the names applied now. */
export async function applyMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
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
