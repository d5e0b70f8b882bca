/**
 * A fresh, migrated database for one test file: a new database on the
 * PostgreSQL server of TEST_DATABASE_URL when that is set, else an in-memory
 * PGlite. Both are real PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';

export interface TestDatabase extends Database {
  /** The PostgreSQL URL of this database (undefined on PGlite). */
  url: string | undefined;
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openDatabase({ dataDir: null });
    await db.migrate();
    return Object.assign(db, { url: undefined });
  }
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 10 });
  await db.migrate();
  return {
    ...db,
    kind: db.kind,
    prisma: db.prisma,
    migrate: db.migrate,
    url: url.toString(),
    async close() {
      await db.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
