/**
 * Who may still be running an in-flight idempotent request: each gateway process names itself
 * on the keys it claims (the record's `holder`), and a key held by a process that is certainly
 * gone is taken over at once instead of answering 409 until the 60 s backstop.
 *
 * - PostgreSQL: a process holds a session-level advisory lock, keyed by its holder id, on a
 *   connection of its own for as long as it lives. PostgreSQL releases the lock when that
 *   connection ends — the process exited, was killed (`kill -9`), or its host vanished (TCP
 *   keep-alive) — so another process asks `pg_try_advisory_xact_lock`: granted means no one
 *   holds it, the holder is gone. A lock key shared by two live processes (a 32-bit hash
 *   collision) only makes a dead holder look alive: the backstop still applies.
 * - PGlite: the embedded database belongs to one process at a time (the data-directory lock),
 *   so a holder other than this process is a process that is gone.
 *
 * A takeover re-keys the record, so the request that lost it can no longer store its answer;
 * storing inside the business transaction then fails and rolls the change back (fencing): even
 * a holder wrongly thought gone (its lock connection lost while it kept running) cannot commit
 * a second time.
 */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Sql } from './sql.js';
import { Prisma as SQL } from '../generated/prisma/client.js';

export interface HolderLiveness {
  /** This process's holder id, once it can be recognised as alive by the others. */
  self(): Promise<string>;
  /** True when `holder` is certainly not running any more. */
  isGone(holder: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The advisory-lock class of gateway holders (two-key form: apart from any single-key lock). */
export const HOLDER_LOCK_CLASS = 0x43_47_49_44; // 'CGID'

/** The second key of a holder's advisory lock. */
export function holderLockKey(holder: string): number {
  return createHash('sha256').update(holder).digest().readInt32BE(0);
}

const newHolderId = () => `gw_${randomBytes(12).toString('base64url')}`;

/** The embedded database: only this process can be running anything. */
export function soleProcessLiveness(): HolderLiveness {
  const id = newHolderId();
  return {
    self: () => Promise.resolve(id),
    isGone: (holder) => Promise.resolve(holder !== id),
    close: () => Promise.resolve(),
  };
}

/** PostgreSQL: a session advisory lock on a connection of this process's own, taken on first use. */
export function advisoryLockLiveness(url: string, sql: Sql): HolderLiveness {
  const id = newHolderId();
  const key = holderLockKey(id);
  let held: Promise<pg.Client> | undefined;
  let closed = false;

  const hold = (): Promise<pg.Client> => {
    if (held) return held;
    // eslint-disable-next-line prefer-const -- read by the callbacks below, which run only after it is set
    let attempt!: Promise<pg.Client>;
    attempt = (async () => {
      const { default: pg } = await import('pg'); // loaded on first use: a process on PGlite never needs it
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
      client.on('error', () => {
        if (held === attempt) held = undefined; // lost: the lock went with the connection; the next claim takes it again
        void client.end().catch(() => {});
      });
      try {
        await client.connect();
        await client.query('SELECT pg_advisory_lock($1, $2)', [HOLDER_LOCK_CLASS, key]);
        return client;
      } catch (error) {
        if (held === attempt) held = undefined;
        await client.end().catch(() => {});
        throw error;
      }
    })();
    held = attempt;
    return attempt;
  };

  return {
    async self() {
      if (closed) throw new Error('holder liveness closed');
      await hold();
      return id;
    },
    async isGone(holder) {
      if (holder === id) return false;
      // Transaction-scoped: granted only when no session holds it, and released when the statement ends.
      const rows = await sql.query<{ free: boolean }>(SQL.sql`SELECT pg_try_advisory_xact_lock(${HOLDER_LOCK_CLASS}::int4, ${holderLockKey(holder)}::int4) AS free`);
      return rows[0]?.free === true;
    },
    async close() {
      closed = true;
      const client = await held?.catch(() => undefined);
      held = undefined;
      await client?.end().catch(() => {});
    },
  };
}
