import { loadConfig, type Config } from '../config/config.js';
import { openDatabase, type Database } from '../db/database.js';
import { buildServices, type Services } from '../services.js';
import { err } from './output.js';

/** Opens the configured database with migrations applied, runs `work`, closes it. */
export async function withDatabase<T>(work: (db: Database, services: Services, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await db.migrate({ onWait: () => err('another process is migrating the database: waiting for it') });
    return await work(db, buildServices(db), config);
  } finally {
    await db.close();
  }
}
