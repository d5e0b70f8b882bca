/**
 * The child process of bench/load: the full gateway app (every middleware, the
 * contract validator, PostgreSQL via DATABASE_URL, the search index, the
 * outbox-writing checkout) over the demo catalog, and beside it a bare Express 5
 * app that answers the same routes with the same JSON — captured from the
 * gateway once — and nothing else. Sends the parent both URLs, the key and the
 * ids the load needs.
 */
import express from 'express';
import pino from 'pino';
import { createApp } from '../../apps/gateway/src/app.js';
import { importCatalog } from '../../apps/gateway/src/catalog/import/catalog-importer.js';
import { loadConfig } from '../../apps/gateway/src/config/config.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { DEMO_CATALOG } from '../../apps/gateway/src/demo-seed.js';
import { createMetrics } from '../../apps/gateway/src/http/metrics.js';
import { memoryStores } from '../../apps/gateway/src/rate-limit/stores.js';
import { openRateLimitStores } from '../../apps/gateway/src/rate-limit/open-stores.js';
import { listenOn } from '../../apps/gateway/src/server.js';
import { buildServices } from '../../apps/gateway/src/services.js';
import { OPERATIONS, type LoadReady } from './operations.js';

const MERCHANT = 'bench-load';
const config = loadConfig({ ...process.env, GATEWAY_ENV: 'development', LOG_LEVEL: 'silent' });
const logger = pino({ level: 'silent' });
const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: null, poolSize: 16 });
await db.migrate();
await db.prisma.$executeRawUnsafe(`DELETE FROM merchants WHERE id = '${MERCHANT}'`); // a rerun starts clean
const services = buildServices(db, { config, logger });
await importCatalog(db, MERCHANT, DEMO_CATALOG);
// Stock enough for every completed checkout of the run.
await db.prisma.variant.updateMany({ where: { merchantId: MERCHANT }, data: { quantity: 1_000_000_000, policy: 'deny' } });
await services.catalog.warmUp();
const { key } = await services.keys.create({ merchantIds: [MERCHANT], env: config.env, scopes: ['*'], tier: 'enterprise', rpm: 1_000_000_000, rpd: 1_000_000_000 });
const rateLimits = process.env.REDIS_URL ? await openRateLimitStores(process.env.REDIS_URL, logger) : memoryStores();
const gateway = await listenOn(createApp({ config, logger, rateLimits, ...services, ops: { metrics: createMetrics(), database: db } }), '127.0.0.1', 0);

const headers = { 'X-ACP-API-Key': key, 'content-type': 'application/json' };
const product = (await db.prisma.product.findFirst({ where: { merchantId: MERCHANT, category: 'Chairs' }, orderBy: { id: 'asc' } }))!;
const checkoutBody = JSON.stringify({ items: [{ product_id: product.id, quantity: 1 }], shipping_address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' } });
const createSession = async () => {
  const response = await fetch(`${gateway.url}/checkout_sessions`, { method: 'POST', headers, body: checkoutBody });
  if (response.status !== 201) throw new Error(`could not create a session: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { checkout_session: { id: string } }).checkout_session.id;
};
const sessionId = await createSession();
// Sessions for the complete run: each is completed once.
const toComplete = Number(process.env.BENCH_COMPLETE_SESSIONS ?? 1_500);
const openSessions: string[] = [];
for (let i = 0; i < toComplete; i++) openSessions.push(await createSession());

// The same JSON the gateway answers, captured once per operation for the bare app.
const ids = { productId: product.id, sessionId, checkoutBody };
const samples = new Map<string, { status: number; json: unknown }>();
const routes = new Map<string, { method: 'get' | 'post' | 'patch'; route: string }>();
const sampleKey = (method: string, route: string, hasQ: boolean) => `${method} ${route}${hasQ ? ' q' : ''}`;
for (const op of OPERATIONS) {
  const request = op.request(op.oncePerSession ? { ...ids, sessionId: await createSession() } : ids);
  const response = await fetch(`${gateway.url}${request.path}`, { method: request.method, headers, body: request.body });
  const json = await response.json();
  if (!response.ok) throw new Error(`${op.name}: ${response.status} ${JSON.stringify(json)}`);
  const route = op.request({ productId: ':product_id', sessionId: ':session_id', checkoutBody }).path.split('?')[0]!;
  samples.set(sampleKey(request.method, route, request.path.includes('q=')), { status: response.status, json });
  routes.set(`${request.method} ${route}`, { method: request.method.toLowerCase() as 'get' | 'post' | 'patch', route });
}
const bare = express();
for (const { method, route } of routes.values()) {
  bare[method](route, express.json(), (req, res) => {
    const sample = samples.get(sampleKey(req.method, route, typeof req.query.q === 'string'))!;
    res.status(sample.status).json(sample.json);
  });
}
const bareServer = await listenOn(bare, '127.0.0.1', 0);

const ready: LoadReady = { gateway: gateway.url, bare: bareServer.url, key, database: db.kind, rateLimits: rateLimits.kind, ...ids, openSessions };
process.send?.(ready);
process.on('disconnect', () => process.exit(0));
