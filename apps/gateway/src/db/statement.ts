/**
 * Statements as the stores write them: `sql` is a template tag whose values become parameters
 * (never spliced into the text). It is Prisma's, so that one statement runs on either client —
 * the driver (sql.ts) or Prisma. Stores take it from here, not from Prisma's namespace.
 */
import { Prisma } from '../generated/prisma/client.js';

/** A statement: its text and its parameters. */
export type Statement = Prisma.Sql;

export const sql = Prisma.sql;
/** Statements joined by `separator` (e.g. the conditions of a WHERE). */
export const joinSql = Prisma.join;
/** A statement of nothing, for an optional part. */
export const emptySql = Prisma.empty;
