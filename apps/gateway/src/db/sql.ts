/**
 * SQL run straight on the driver — node-postgres on PostgreSQL, PGlite embedded — for the hot
 * transactions, where Prisma's interactive transaction costs several times the driver's own
 * (measured: BEGIN, three statements and COMMIT cost 738 µs of CPU through Prisma, 178 µs
 * through `pg`): every transaction (transaction.ts) runs here. Stores may read through Prisma's
 * query builder outside a transaction, on the same connections.
 *
 * Statements are Prisma.sql templates (values as parameters, never spliced into the text). The
 * drivers parse some types differently (PGlite gives an int8 as a number, node-postgres as a
 * string; timestamps without a zone): statements run here return only text, int4, float8,
 * boolean, json and arrays of those — bigint amounts as text, timestamps as ISO text (`iso()`).
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { sql, type Statement } from './statement.js';
import { preparedNames } from './prepared-names.js';

export interface Sql {
  /** The rows a statement returns. */
  query<T>(statement: Statement): Promise<T[]>;
  /** How many rows a statement changed. */
  execute(statement: Statement): Promise<number>;
}

/** A driver: statements on their own (each its own transaction), and transactions. */
export interface SqlDriver extends Sql {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}

/** A `timestamp(3)` column (UTC wall-clock time) as ISO 8601 text, e.g. `2026-11-25T17:02:15.683Z`. */
export const iso = (column: Statement) => sql`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * On PostgreSQL: a pool's connections (the pool Prisma's adapter uses too). Statements are
 * prepared once per connection (prepared-names.ts) unless `prepared` is false
 * (DATABASE_PREPARED_STATEMENTS=false: behind a pooler in transaction mode that does not track them).
 */
export function pgSql(pool: pg.Pool, { prepared = true }: { prepared?: boolean } = {}): SqlDriver {
  const named = prepared ? preparedNames() : () => undefined;
  const on = (client: pg.Pool | pg.PoolClient): Sql => ({
    async query<T>(statement: Statement) {
      return (await client.query({ name: named(statement.text), text: statement.text, values: statement.values })).rows as T[];
    },
    async execute(statement: Statement) {
      return (await client.query({ name: named(statement.text), text: statement.text, values: statement.values })).rowCount ?? 0;
    },
  });
  return {
    ...on(pool),
    async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      // A checked-out client has no listener of the pool's: a connection lost between statements (PostgreSQL
      // stopped) would be an uncaught error. It is noted instead; the next statement fails, and the client is dropped.
      const lost = (error: Error) => (broken = error);
      client.on('error', lost);
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot even roll back is closed rather than handed to the next caller.
        await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
        throw error;
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
  };
}

/** On PGlite: its one connection (transactions take turns with every other query, Prisma's included). */
export function pgliteSql(pglite: PGlite): SqlDriver {
  const on = (db: PGlite | Transaction): Sql => ({
    async query<T>(statement: Statement) {
      return (await db.query<T>(statement.text, statement.values)).rows;
    },
    async execute(statement: Statement) {
      return (await db.query(statement.text, statement.values)).affectedRows ?? 0;
    },
  });
  return { ...on(pglite), transaction: (work) => pglite.transaction((tx) => work(on(tx))) };
}
