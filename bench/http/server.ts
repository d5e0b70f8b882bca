/**
 * Child process of bench/http: one database with the demo catalog (or a synthesized one of
 * BENCH_PRODUCTS products), the gateway as `serve` builds it (services, catalog read model and
 * search index, key cache, rate limits, request logs to /dev/null, metrics) and, beside it, a
 * bare Express 5 app that answers each measured path with the very bytes the gateway answered.
 */
import express from 'express';
import pino from 'pino';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../apps/gateway/src/app.js';
import { importCatalog } from '../../apps/gateway/src/catalog/import/catalog-importer.js';
import { loadConfig } from '../../apps/gateway/src/config/config.js';
import { createLogger } from '../../apps/gateway/src/kernel/logger.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { DEMO_CATALOG } from '../../apps/gateway/src/demo-seed.js';
import { createMetrics } from '../../apps/gateway/src/http/metrics.js';
import { memoryStores } from '../../apps/gateway/src/rate-limit/stores.js';
import { openRateLimitStores } from '../../apps/gateway/src/rate-limit/open-stores.js';
import { listenOn } from '../../apps/gateway/src/server.js';
import { buildServices } from '../../apps/gateway/src/services.js';

const paths: string[] = JSON.parse(process.env.BENCH_PATHS ?? '[]');
const config = loadConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1', ...process.env, GATEWAY_ENV: process.env.GATEWAY_ENV ?? 'production', LOG_LEVEL: 'info' });
const logger = createLogger('info', pino.destination({ dest: '/dev/null', sync: false })); // as `serve` logs (redaction too), to /dev/null
const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: null, poolSize: 16 });
await db.migrate();
const services = buildServices(db, { config: { ...config, databaseUrl: process.env.DATABASE_URL }, logger });
await services.keys.listen(db);
const file = process.env.BENCH_CATALOG ?? DEMO_CATALOG;
const started = performance.now();
await importCatalog(db, 'bench', file);
const importedMs = performance.now() - started;
const rssBefore = process.memoryUsage().rss;
const warm = await services.catalog.warmUp();
global.gc?.();
const memory = { rssMb: process.memoryUsage().rss / 1e6, rssBeforeLoadMb: rssBefore / 1e6, heapUsedMb: process.memoryUsage().heapUsed / 1e6 };
const { key } = await services.keys.create({ merchantIds: ['bench'], env: config.env, scopes: ['*'], tier: 'enterprise', rpm: 1_000_000_000, rpd: 1_000_000_000 });
const rateLimits = process.env.REDIS_URL ? await openRateLimitStores(process.env.REDIS_URL, logger) : memoryStores();
// BENCH_PROCESS_METRICS=1: the process's own metrics too, as `serve` has them (what a /metrics scrape then formats).
const metrics = createMetrics({ processMetrics: process.env.BENCH_PROCESS_METRICS === '1' });
const full = await listenOn(createApp({ config, logger, rateLimits, ...services, ops: { metrics, database: db } }), '127.0.0.1', 0);

// The bare app: the same bytes and content type the gateway answered, per path.
const answers = new Map<string, { type: string; body: Buffer }>();
for (const path of paths) {
  const response = await fetch(`${full.url}${path}`, { headers: { 'X-ACP-API-Key': key } });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  answers.set(path, { type: response.headers.get('content-type') ?? 'application/json', body: Buffer.from(await response.arrayBuffer()) });
}
const bare = express();
bare.disable('x-powered-by');
bare.set('etag', false);
bare.use((req, res) => {
  const answer = answers.get(req.originalUrl);
  if (!answer) return void res.status(404).end();
  res.type(answer.type).send(answer.body);
});
// The bare app as Express apps are run (`app.listen`: Node's own request classes), not through the gateway's
// listenOn, whose requests are born with the app's prototypes (apps/gateway/src/http/express-messages.ts).
const bareServer = await new Promise<{ url: string }>((done) => {
  const server = createServer(bare).listen(0, '127.0.0.1', () => done({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});

process.send?.({ full: full.url, bare: bareServer.url, key, database: db.kind, rateLimits: rateLimits.kind, products: warm.products, importedMs, memory, env: config.env });
// CPU time of this process on request: run.ts divides a round's CPU by its requests (robust to a busy machine).
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
