/**
 * The child process of bench/edge: one database, two HTTP servers over the same
 * catalog service — the full gateway app (request id, version, CORS, route
 * match, API-key auth, rate limits, body parsing, signature check, contract
 * validation of request and response) and a bare Express app with only the catalog's handlers.
 */
import express from 'express';
import pino from 'pino';
import { createApp } from '../../apps/gateway/src/app.js';
import { catalogOperations } from '../../apps/gateway/src/api/catalog-operations.js';
import { OperationTable } from '../../apps/gateway/src/contract/operations.js';
import { loadConfig } from '../../apps/gateway/src/config/config.js';
import { importCatalog } from '../../apps/gateway/src/catalog/import/catalog-importer.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { DEMO_CATALOG } from '../../apps/gateway/src/demo-seed.js';
import { memoryStores } from '../../apps/gateway/src/rate-limit/stores.js';
import { openRateLimitStores } from '../../apps/gateway/src/rate-limit/open-stores.js';
import { listenOn } from '../../apps/gateway/src/server.js';
import { buildServices } from '../../apps/gateway/src/services.js';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const logger = pino({ level: 'silent' });
const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: null, poolSize: 16 });
await db.migrate();
const services = buildServices(db);
await services.keys.listen(db);
await importCatalog(db, 'bench', DEMO_CATALOG);
await services.catalog.warmUp(); // the search index builds now, not during a measured round
const { key } = await services.keys.create({ merchantIds: ['bench'], env: config.env, scopes: ['catalog:read'], tier: 'enterprise', rpm: 100_000_000, rpd: 1_000_000_000 });
const rateLimits = process.env.REDIS_URL ? await openRateLimitStores(process.env.REDIS_URL, logger) : memoryStores();

const full = await listenOn(createApp({ config, logger, rateLimits, ...services }), '127.0.0.1', 0);

const bare = express();
const table = new OperationTable();
const handlers = catalogOperations(services.catalog);
bare.use((req, res) => {
  const match = table.match(req.method, req.path);
  if (match.kind !== 'operation' || !handlers[match.operation.operationId]) return void res.status(404).end();
  req.ctx = { requestId: 'bench', merchantId: 'bench', apiVersion: '2026-11-01', operation: match.operation, pathParams: match.params };
  return handlers[match.operation.operationId]!(req, res);
});
const bareServer = await listenOn(bare, '127.0.0.1', 0);

process.send?.({ full: full.url, bare: bareServer.url, key, database: db.kind, rateLimits: rateLimits.kind });
process.on('disconnect', () => process.exit(0));
