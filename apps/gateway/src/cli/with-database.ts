import { AsyncLocalStorage } from 'node:async_hooks';
import { loadConfig, type Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import { err } from './output.js';

/** A running gateway's open database and services, lent to the commands it runs for a CLI on its local socket. */
export interface HostDatabase {
  db: Database;
  services: Services;
  config: Config;
}

const host = new AsyncLocalStorage<HostDatabase>();

/**
 * The running gateway's services as a command sees them: closing the catalog (what a command
 * does when it opened its own) must not close the server's.
 */
function lent(services: Services): Services {
  const catalog = new Proxy(services.catalog, {
    get(target, property) {
      if (property === 'close') return async () => {};
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...services, catalog };
}

/** Runs `work` (a command) over a running gateway's database instead of opening one. */
export const withHostDatabase = <T>(database: HostDatabase, work: () => T): T => host.run(database, work);

/** Whether the command runs inside a running gateway (for a CLI on its local socket). */
export const insideGateway = (): boolean => host.getStore() !== undefined;

/** Opens the configured database with migrations applied, runs `work`, closes it (or uses the running gateway's, see withHostDatabase). */
export async function withDatabase<T>(work: (db: Database, services: Services, config: Config) => Promise<T>): Promise<T> {
  const lentDatabase = host.getStore();
  if (lentDatabase) return work(lentDatabase.db, lent(lentDatabase.services), lentDatabase.config);
  const config = loadConfig();
  // Loaded here, not at the top: `--help` and commands sent to a running gateway never load the database drivers.
  // The database starts opening first: while it waits for its files (PGlite's WASM and file system image), the
  // services' modules load.
  const opening = import('../db/database.js').then(({ openDatabase }) => openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 }));
  const [opened, services] = await Promise.allSettled([opening, import('../services.js')]);
  if (opened.status === 'rejected') throw opened.reason;
  const db = opened.value;
  try {
    if (services.status === 'rejected') throw services.reason;
    const { buildServices } = services.value;
    await db.migrate({ onWait: () => err('another process is migrating the database: waiting for it') });
    return await work(db, buildServices(db), config);
  } finally {
    await db.close();
  }
}
