/**
 * One migrator at a time across every process on a PostgreSQL database. Prisma's schema
 * engine takes an advisory lock of its own, but gives up after 10 s, so a replica started
 * while a long migration runs (the `migrate` Job, or another replica) would exit. This lock
 * is held around the engine's work and waited for as long as `timeoutMs`: the next process
 * then finds nothing pending and goes on.
 *
 *   await withMigrationLock(url, () => applyMigrations(adapter), { onWait: () => log('waiting') });
 */
import pg from 'pg';

/** pg_advisory_lock key of the gateway's migrations ("CGMG"); distinct from Prisma's own (72707369). */
export const MIGRATION_LOCK_KEY = 0x43474d47;

export interface MigrationLockOptions {
  /** How long to wait for another process's migrations (default 10 min). */
  timeoutMs?: number;
  /** Called once when another process holds the lock and this one starts waiting. */
  onWait?: () => void;
}

export class MigrationLockTimeoutError extends Error {
  override name = 'MigrationLockTimeoutError';
}

export async function withMigrationLock<T>(url: string, work: () => Promise<T>, { timeoutMs = 600_000, onWait }: MigrationLockOptions = {}): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {}); // a lost connection frees the lock; the work's own connection reports the outage
  await client.connect();
  try {
    const [{ locked }] = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY])).rows as [{ locked: boolean }];
    if (!locked) {
      onWait?.();
      await client.query(`SET lock_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      } catch (error) {
        if ((error as { code?: string }).code === '55P03') {
          throw new MigrationLockTimeoutError(`another process has been migrating the database for more than ${Math.round(timeoutMs / 1000)} s; is a migration stuck?`);
        }
        throw error;
      }
    }
    return await work();
  } finally {
    await client.end().catch(() => {});
  }
}
