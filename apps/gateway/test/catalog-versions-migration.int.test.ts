/**
 * The catalog_versions migration on a database that already had catalogs (every deployment before
 * it): each merchant with products gets exactly one version of its own, and the triggers it installs
 * change one merchant's version at a time. The migration is undone on a migrated database, two
 * merchants' catalogs are imported without it, and its committed script is run as the migrator
 * runs it (one simple query). PostgreSQL only (TEST_DATABASE_URL): PGlite runs the same script.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { migrationsDir } from '../src/db/paths.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const MIGRATION = '20261127135039_catalog_versions';
const script = readFileSync(join(migrationsDir, MIGRATION, 'migration.sql'), 'utf8');
const demo = readFileSync(new URL('../data/demo/products.ndjson', import.meta.url), 'utf8').trim().split('\n');

describe.skipIf(!process.env.TEST_DATABASE_URL)('the catalog_versions migration on a database with catalogs', () => {
  let db: TestDatabase;
  let client: pg.Client;
  const dir = mkdtempSync(join(tmpdir(), 'gw-versions-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    // The database as it was before the migration: its functions (and with them their triggers) and table gone.
    for (const [, name] of script.matchAll(/CREATE FUNCTION "(\w+)"/g)) await client.query(`DROP FUNCTION "${name}"() CASCADE`);
    await client.query('DROP TABLE "catalog_versions"');
    for (const [merchant, lines] of [
      ['shop-a', demo.slice(0, 5)],
      ['shop-b', demo.slice(5, 8)],
    ] as const) {
      const file = join(dir, `${merchant}.ndjson`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      await importCatalog(db, merchant, file);
    }
    await client.query(script);
  });

  afterAll(async () => {
    await client?.end();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const versions = async () => {
    const rows = await db.sql.query<{ merchant: string; version: string }>(
      Prisma.sql`SELECT merchant_id AS merchant, version::text AS version FROM catalog_versions ORDER BY merchant_id`,
    );
    return Object.fromEntries(rows.map((row) => [row.merchant, row.version]));
  };

  it('gives each merchant with products one version of its own', async () => {
    const rows = await db.sql.query<{ merchant: string; count: number }>(
      Prisma.sql`SELECT merchant_id AS merchant, count(*)::int AS count FROM catalog_versions GROUP BY merchant_id ORDER BY merchant_id`,
    );
    expect(rows).toEqual([
      { merchant: 'shop-a', count: 1 },
      { merchant: 'shop-b', count: 1 },
    ]);
    const { 'shop-a': a, 'shop-b': b } = await versions();
    expect(a).not.toBe(b);
  });

  it('installs the triggers: a title changes its merchant\'s version only, a sale changes none', async () => {
    const before = await versions();
    const { id } = JSON.parse(demo[0]!) as { id: string };
    await client.query(`UPDATE products SET title = title || ' (renamed)' WHERE merchant_id = 'shop-a' AND id = $1`, [id]);
    const renamed = await versions();
    expect(renamed['shop-a']).not.toBe(before['shop-a']);
    expect(renamed['shop-b']).toBe(before['shop-b']);
    await client.query(`UPDATE variants SET quantity = quantity + 1 WHERE merchant_id = 'shop-b'`);
    expect(await versions()).toEqual(renamed);
  });
});
