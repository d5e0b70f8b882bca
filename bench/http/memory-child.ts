/** Child of memory.ts: `serve` as the CLI runs it, or the catalog loaded step by step (MEMORY_MODE=parts). */
import pino from 'pino';
import { loadConfig } from '../../apps/gateway/src/config/config.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { KeyService } from '../../apps/gateway/src/auth/key-service.js';
import { KeyStore } from '../../apps/gateway/src/auth/key-store.js';
import { startGateway } from '../../apps/gateway/src/server.js';
import { buildServices } from '../../apps/gateway/src/services.js';

const mb = (bytes: number) => bytes / 1e6;
const settle = () => {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage();
};
const config = loadConfig();
const logger = pino({ level: 'warn' });

if (process.env.MEMORY_MODE === 'serve') {
  const started = performance.now();
  const gateway = await startGateway(config, logger);
  const readyMs = performance.now() - started;
  const memory = settle();
  // A key for the parent's one-at-a-time `?q=` requests (after the memory is read).
  const keys = new KeyService(new KeyStore(gateway.db.prisma));
  const { key } = await keys.create({ merchantIds: [process.env.MEMORY_MERCHANT!], env: config.env, scopes: ['*'], tier: 'enterprise', rpm: 1e9, rpd: 1e9 });
  process.send?.({ readyMs, rssMb: mb(memory.rss), heapUsedMb: mb(memory.heapUsed), arrayBuffersMb: mb(memory.arrayBuffers), url: gateway.url, key });
  process.on('SIGTERM', () => void gateway.close().then(() => process.exit(0)));
} else {
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
}
