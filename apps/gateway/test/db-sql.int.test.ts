/**
 * The driver's own transactions (db/sql.ts), on PostgreSQL when TEST_DATABASE_URL is set, else on
 * PGlite: committed when the work resolves, rolled back when it throws, the same types from both
 * drivers for what checkout's statements return, and Prisma's queries taking turns with them.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isDatabaseUnavailable, openDatabase } from '../src/db/database.js';
import { iso, type Sql } from '../src/db/sql.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.close());

const merchants = async (prefix: string) => (await db.prisma.merchant.findMany({ where: { id: { startsWith: prefix } }, orderBy: { id: 'asc' } })).map((m) => m.id);
const insert = (id: string) => Prisma.sql`INSERT INTO merchants (id, name) VALUES (${id}, 'shop')`;

describe('Database.sql', () => {
  it('commits what a transaction wrote when its work resolves, and answers what the work answered', async () => {
    const answer = await db.transaction(async (tx) => {
      expect(await tx.execute(insert('sql-commit-1'))).toBe(1);
      await tx.execute(insert('sql-commit-2'));
      return (await tx.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM merchants WHERE id LIKE 'sql-commit-%'`))[0]!.n;
    });
    expect(answer).toBe(2); // the transaction reads its own writes
    expect(await merchants('sql-commit-')).toEqual(['sql-commit-1', 'sql-commit-2']);
  });

  it('rolls back everything when the work throws, and throws what it threw', async () => {
    const failing = db.transaction(async (tx) => {
      await tx.execute(insert('sql-rollback-1'));
      throw new Error('changed my mind');
    });
    await expect(failing).rejects.toThrow('changed my mind');
    const violating = db.transaction(async (tx) => {
      await tx.execute(insert('sql-rollback-2'));
      await tx.execute(insert('sql-rollback-2')); // a unique violation: the database refuses
    });
    await expect(violating).rejects.toMatchObject({ code: '23505' });
    expect(await merchants('sql-rollback-')).toEqual([]);
    expect(await db.sql.query(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]); // the connection is usable again
  });

  it('gives the same JavaScript types on either driver for int4, float8, boolean, text, json, arrays, amounts as text and ISO times', async () => {
    const [row] = await db.sql.query<Record<string, unknown>>(Prisma.sql`
      SELECT 7::int AS int4, 0.0725::float8 AS float8, true AS bool, 'é'::text AS text, '{"a":[1,"b"]}'::json AS json,
             ARRAY[1, 2]::int[] AS ints, ARRAY['x', 'y']::text[] AS texts, ${9_007_199_254_740_993n}::bigint::text AS amount,
             ${iso(Prisma.sql`'2026-11-25 17:02:15.683'::timestamp(3)`)} AS at`);
    expect(row).toEqual({
      int4: 7, float8: 0.0725, bool: true, text: 'é', json: { a: [1, 'b'] }, ints: [1, 2], texts: ['x', 'y'], amount: '9007199254740993', at: '2026-11-25T17:02:15.683Z',
    });
  });

  it('lets Prisma queries wait for an open transaction on PGlite (one connection), and run beside it on PostgreSQL', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: (tx: Sql) => void;
    const written = new Promise<Sql>((resolve) => (inserted = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.execute(insert('sql-turns-1'));
      inserted(tx);
      await held;
    });
    const inside = await written;
    // On PGlite: its query method, to see the moment Prisma's query reaches the one connection.
    const reached = db.kind === 'pglite' ? vi.spyOn((await import('@electric-sql/pglite')).PGlite.prototype, 'query') : undefined;
    const answers: string[] = [];
    const outside = db.prisma.merchant.count({ where: { id: { startsWith: 'sql-turns-' } } }).then((n) => (answers.push('outside'), n)); // sent now (Prisma's queries are lazy)
    if (reached) {
      try {
        await vi.waitFor(() => expect(reached).toHaveBeenCalled(), { timeout: 10_000 });
      } finally {
        reached.mockRestore();
      }
      // The transaction's statements after it are answered while it waits: had it not waited, PGlite would have answered it first.
      expect(await inside.query(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
      expect(await inside.query(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
      expect(answers).toEqual([]);
      release();
      await transaction.then(() => answers.push('committed'));
      expect(await outside).toBe(1); // it waited for the commit
      expect(answers).toEqual(['committed', 'outside']);
    } else {
      expect(await outside).toBe(0); // answered while the transaction is open, without its uncommitted row
      release();
      await transaction;
    }
    expect(await merchants('sql-turns-')).toEqual(['sql-turns-1']);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('fails a transaction whose connection is lost between statements as unavailable (no uncaught error), and serves the next one', async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const lost = db.transaction(async (tx) => {
        const [{ pid }] = (await tx.query<{ pid: number }>(Prisma.sql`SELECT pg_backend_pid() AS pid`)) as [{ pid: number }];
        const emitted = vi.spyOn(pg.Client.prototype, 'emit'); // every client's events: the transaction's client is the pool's
        try {
          await admin.query('SELECT pg_terminate_backend($1)', [pid]); // as PostgreSQL stopping does to every connection
          // The connection's error arrives while no statement runs (its client emits it: no query to fail with it).
          await vi.waitFor(() => expect(emitted.mock.calls.some(([event], i) => event === 'error' && emitted.mock.contexts[i] !== admin)).toBe(true), { timeout: 10_000 });
        } finally {
          emitted.mockRestore();
        }
        await tx.query(Prisma.sql`SELECT 1`);
      });
      const error = await lost.then(() => undefined, (e: unknown) => e);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(await db.transaction((tx) => tx.query(Prisma.sql`SELECT 1 AS one`))).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
    }
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('prepares a statement once per connection (DATABASE_PREPARED_STATEMENTS), and runs it unnamed when that is off', async () => {
    const statement = (id: string) => Prisma.sql`SELECT id FROM merchants WHERE id = ${id} AND name = ${'shop'}`;
    const preparedHere = (tx: Sql) => tx.query<{ name: string; statement: string }>(Prisma.sql`SELECT name, statement FROM pg_prepared_statements`);
    await db.sql.execute(insert('sql-prepared-1'));
    const [first, again] = await db.transaction(async (tx) => {
      const answers = [await tx.query(statement('sql-prepared-1')), await tx.query(statement('nobody'))];
      const prepared = await preparedHere(tx);
      expect(prepared.filter((p) => p.statement === statement('x').text && /^cg_[0-9a-f]{20}$/.test(p.name))).toHaveLength(1); // once, for both values
      return answers;
    });
    expect(first).toEqual([{ id: 'sql-prepared-1' }]);
    expect(again).toEqual([]);

    const unnamed = await openDatabase({ url: db.url, poolSize: 1, preparedStatements: false });
    try {
      const prepared = await unnamed.transaction(async (tx) => {
        expect(await tx.query(statement('sql-prepared-1'))).toEqual([{ id: 'sql-prepared-1' }]);
        return preparedHere(tx);
      });
      expect(prepared).toEqual([]);
    } finally {
      await unnamed.close();
    }
  });
});
