/**
 * Opens the database: PostgreSQL when a URL is given, else embedded PGlite in a
 * data directory. One pool (or PGlite's one connection) serves both clients: Prisma
 * through a driver adapter, and the driver itself (sql.ts), which runs every
 * transaction (transaction.ts). Both kinds run the committed migrations through the
 * same WASM schema engine, loaded only when a migration is pending (migrations.ts).
 * Each kind's drivers load only when it is opened: a CLI command on the embedded
 * database never loads node-postgres, nor one on PostgreSQL PGlite.
 *
 * Only `db/` and the stores (`*-store.ts`, the catalog writer) use `prisma` and `sql`;
 * services see `transaction` and the `Tx` it hands out, and pass that on.
 */
import { PrismaClient, Prisma as SQL } from '../generated/prisma/client.js';
import { lockDataDir } from './data-dir-lock.js';
import { soleProcessLiveness, type HolderLiveness } from './holder-liveness.js';
import type { MigrationLockOptions } from './migration-lock.js';
import { applyMigrations, migrationsUpToDate } from './migrations.js';
import type { NotificationHandlers, Subscription } from './pg-listener.js';
import { pgliteSql, pgSql, type Sql, type SqlDriver } from './sql.js';
import type { UnitOfWork } from './transaction.js';

export type Prisma = InstanceType<typeof PrismaClient>;

export interface Database extends UnitOfWork {
  readonly kind: 'postgresql' | 'pglite';
  /** Prisma's query builder, for stores' reads and single writes outside a transaction. */
  readonly prisma: Prisma;
  /** The same database through its driver (sql.ts): stores' statements outside a transaction. */
  readonly sql: Sql;
  /**
   * Applies pending migrations; returns the names applied now. On PostgreSQL one process
   * migrates at a time (migration-lock.ts): the others wait, then find nothing pending.
   */
  migrate(options?: MigrationLockOptions): Promise<string[]>;
  /** The names of the migrations applied (finished), oldest first. */
  appliedMigrations(): Promise<string[]>;
  /**
   * LISTEN on a channel. NOTIFY is heard once the notifying transaction commits: on PGlite
   * from this process (the only one that can open it), on PostgreSQL from every process.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<Subscription>;
  /** Which processes are alive, for taking over idempotency keys of dead ones (one per database, whatever shares it). */
  readonly holders: HolderLiveness;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent, the embedded database in `dataDir` (or in memory when `dataDir` is null). */
  url?: string | undefined;
  dataDir?: string | null;
  /** Connection pool size for PostgreSQL (DATABASE_POOL_SIZE; default 10). Migrations and LISTEN (one connection for every channel) use connections of their own. */
  poolSize?: number;
  /** The hot statements (db.sql) prepared once per connection (DATABASE_PREPARED_STATEMENTS; default true). */
  preparedStatements?: boolean;
}

export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options.poolSize ?? 10, options.preparedStatements ?? true) : openPGlite(options.dataDir ?? null);
}

async function openPostgres(url: string, max: number, prepared: boolean): Promise<Database> {
  const [{ default: pg }, { PrismaPg }, { PostgresListener }, { withMigrationLock }, { advisoryLockLiveness }, { wholeScriptPg }] = await Promise.all([
    import('pg'),
    import('@prisma/adapter-pg'),
    import('./pg-listener.js'),
    import('./migration-lock.js'),
    import('./holder-liveness.js'),
    import('./whole-script-pg.js'),
  ]);
  // Bounded everywhere, so a request never waits on the database for ever: a connection comes within
  // 5 s, the server cancels a statement after 30 s (a clean 57014), the client gives up on a silent
  // connection after 35 s, and TCP keep-alive notices a peer that vanished.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5_000,
    statement_timeout: 30_000,
    query_timeout: 35_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle connection that breaks (PostgreSQL restarted) is dropped by the pool; the next query gets a new one.
  pool.on('error', () => {});
  const factory = new PrismaPg(pool);
  const prisma = new PrismaClient({ adapter: factory });
  try {
    await prisma.$queryRawUnsafe('SELECT 1');
  } catch (error) {
    await prisma.$disconnect().catch(() => {});
    await pool.end().catch(() => {});
    throw new DatabaseUnreachableError(`DATABASE_URL: cannot connect to ${describeUrl(url)}: ${reason(error)}`);
  }
  const driver = pgSql(pool, { prepared });
  const migrate = async (options?: MigrationLockOptions) =>
    // Up to date (the usual case): no lock, no engine. Else one process at a time applies what is pending.
    (await migrationsUpToDate(driver))
      ? []
      : withMigrationLock(
          url,
          async () => {
            const pool = new pg.Pool({ connectionString: url, max: 1 });
            try {
              return await applyMigrations(wholeScriptPg(pool));
            } finally {
              await pool.end();
            }
          },
          options,
        );
  const listener = new PostgresListener(url); // one connection hears every channel of this process
  const listen = (channel: string, handlers: NotificationHandlers) => listener.listen(channel, handlers);
  const closeDriver = async () => {
    await listener.close();
    await pool.end();
  };
  return assemble('postgresql', prisma, { sql: driver, migrate, listen, holders: advisoryLockLiveness(url, driver), closeDriver });
}

/**
 * PGlite's buffer cache. Its whole segment is resident from the start (PostgreSQL's default, 128 MB,
 * is most of an embedded gateway's memory); the files behind it stay in the OS page cache. Measured
 * with 50,000 products (bench/http/memory.ts): resident memory after start-up down by about 100 MB.
 */
const PGLITE_SHARED_BUFFERS = '32MB';

async function openPGlite(dataDir: string | null): Promise<Database> {
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
    const options = { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] };
    const pglite = dataDir ? new PGlite(dataDir, options) : new PGlite(options);
    await pglite.waitReady;
    const factory = new PrismaPGlite(pglite);
    const prisma = new PrismaClient({ adapter: factory });
    const driver = pgliteSql(pglite);
    return assemble('pglite', prisma, {
      sql: driver,
      migrate: async () => ((await migrationsUpToDate(driver)) ? [] : applyMigrations(factory)),
      holders: soleProcessLiveness(),
      async listen(channel, handlers) {
        const unlisten = await pglite.listen(channel, handlers.onNotify);
        return { close: unlisten };
      },
      async closeDriver() {
        await pglite.close();
        release();
      },
    });
  } catch (error) {
    release();
    throw error;
  }
}

function assemble(
  kind: Database['kind'],
  prisma: Prisma,
  { sql, migrate, listen, holders, closeDriver }: Pick<Database, 'migrate' | 'listen' | 'holders'> & { sql: SqlDriver; closeDriver: () => Promise<void> },
): Database {
  return {
    kind,
    prisma,
    sql: { query: (statement) => sql.query(statement), execute: (statement) => sql.execute(statement) },
    transaction: (work) => sql.transaction(work),
    migrate,
    async appliedMigrations() {
      const rows = await sql.query<{ name: string }>(SQL.sql`
        SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`);
      return rows.map((row) => row.name);
    },
    listen,
    holders,
    async close() {
      await holders.close();
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}

function describeUrl(raw: string): string {
  const { hostname, port, pathname } = new URL(raw);
  return `${hostname}:${port || 5432}${pathname}`;
}

function reason(error: unknown): string {
  const kind = driverErrorKind(error);
  if (kind === 'DatabaseNotReachable') return 'connection refused or host unreachable';
  if (kind) return kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return (error as Error).message?.split('\n').filter(Boolean).pop() ?? String(error);
}

/** The driver adapter's error kind inside a Prisma error (e.g. 'DatabaseNotReachable'), if any. */
export function driverErrorKind(error: unknown): string | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { kind?: string } } } }).meta;
  return meta?.driverAdapterError?.cause?.kind;
}

const UNAVAILABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'DatabaseDoesNotExist']);
/**
 * Prisma codes and PostgreSQL SQLSTATEs that say the database went away or cannot take work
 * now (not that the query was wrong): unreachable, connection closed, pool timeout; 57P01-57P03
 * admin shutdown, crash, starting up; 57014 statement timeout; 53300 too many connections; class 08,
 * connection exceptions.
 */
const UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P02', '57P03', '57014', '53300']);
/** node-postgres's own errors, which carry no code, for a connection that broke or never came. */
const UNAVAILABLE_MESSAGES = /Client has encountered a connection error|Connection terminated|timeout exceeded when trying to connect|Query read timeout/;

interface DriverCause {
  kind?: string;
  code?: string;
  /** The SQLSTATE, where the adapter kept PostgreSQL's own code (a raw statement's failure, Prisma P2010). */
  originalCode?: string;
}

/**
 * What the driver adapter said went wrong: inside a Prisma error, or the adapter's own error where
 * Prisma lets it through unwrapped (a failed COMMIT of an interactive transaction).
 */
function driverCause(error: unknown): DriverCause | undefined {
  const wrapped = (error as { meta?: { driverAdapterError?: { cause?: DriverCause } } })?.meta?.driverAdapterError?.cause;
  if (wrapped) return wrapped;
  return (error as { name?: unknown })?.name === 'DriverAdapterError' ? (error as { cause?: DriverCause }).cause : undefined;
}

/** True when PostgreSQL refused text it cannot store (a NUL character, \u0000, in a string or JSON value): the caller's input. */
export function isUnstorableText(error: unknown): boolean {
  const cause = driverCause(error);
  return [(error as { code?: unknown })?.code, cause?.code, cause?.originalCode].some((code) => code === '22021' || code === '22P05');
}

/** True when a database error means "unavailable, retry shortly" (answered 503), whichever layer raised it. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const cause = driverCause(error);
  const codes = [(error as { code?: unknown })?.code, cause?.code, cause?.originalCode].filter((code): code is string => typeof code === 'string');
  return (
    (cause?.kind !== undefined && UNAVAILABLE_KINDS.has(cause.kind)) ||
    codes.some((code) => UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) ||
    (error instanceof Error && UNAVAILABLE_MESSAGES.test(error.message))
  );
}
