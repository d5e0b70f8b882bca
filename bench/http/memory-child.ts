/** Child of memory.ts: the catalog loaded step by step, to part the read model's memory from the search index's. */
import pino from 'pino';
import { loadConfig } from '../../apps/gateway/src/config/config.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { buildServices } from '../../apps/gateway/src/services.js';

const mb = (bytes: number) => bytes / 1e6;
const settle = () => {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage();
};
const config = loadConfig();
const logger = pino({ level: 'warn' });

const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
const services = buildServices(db, { config, logger });
const base = settle();
await services.catalog.warmUp();
const loaded = settle();
// Dropping the read model's products frees what only it holds (the index keeps the strings it shares).
await services.catalog.readModel.close();
const withoutReadModel = settle();
process.send?.({
  baseHeapMb: mb(base.heapUsed),
  loadedHeapMb: mb(loaded.heapUsed - base.heapUsed),
  loadedRssMb: mb(loaded.rss - base.rss),
  readModelHeapMb: mb(loaded.heapUsed - withoutReadModel.heapUsed),
});
