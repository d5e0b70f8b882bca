import type { Prisma } from './database.js';

/** A Prisma client bound to one interactive transaction. */
export type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];

/**
 * Work that must commit or roll back with a business change, run inside its
 * transaction just before it commits — e.g. storing an idempotent response.
 */
export type BeforeCommit<T> = (tx: Tx, result: T) => Promise<void>;
