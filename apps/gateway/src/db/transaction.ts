import type { Sql } from './sql.js';

/**
 * The unit of work: one transaction on the database's driver (sql.ts), opened by
 * `Database.transaction`. Stores run their statements on it; everything else only hands it on.
 * There is one kind: every store writes on the driver inside a transaction, so that any
 * store's writes can join any other's (an order's change and its outbox event, a checkout and
 * its idempotent answer).
 */
export type Tx = Sql;

/** Where units of work come from (the Database): what a service needs to run stores' writes together. */
export interface UnitOfWork {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

/**
 * Work that must commit or roll back with a business change, run inside its
 * transaction just before it commits — e.g. storing an idempotent response.
 */
export type BeforeCommit<T> = (tx: Tx, result: T) => Promise<void>;
