import type { Prisma } from './database.js';
import type { Sql } from './sql.js';

/** A Prisma client bound to one interactive transaction. */
export type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];

/**
 * Work that must commit or roll back with a business change, run inside its
 * transaction just before it commits — e.g. storing an idempotent response.
 */
export type BeforeCommit<T> = (tx: Sql, result: T) => Promise<void>;

/** Statements on a Prisma client or interactive transaction, as `Sql` (for code shared with driver transactions). */
export function prismaSql(client: Prisma | Tx): Sql {
  return {
    query: <T>(statement: Parameters<Prisma['$queryRaw']>[0]) => client.$queryRaw<T[]>(statement),
    execute: (statement) => client.$executeRaw(statement),
  };
}
