/** A gateway app with the ops endpoints, over a given database, whose log lines a test reads (the ops suites). */
import { Writable } from 'node:stream';
import pino from 'pino';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import type { openDatabase } from '../../src/db/database.js';
import type { OpsDeps } from '../../src/ops/ops-endpoints.js';
import { memoryStores } from '../../src/rate-limit/stores.js';
import { listenOn, type Listening } from '../../src/server.js';
import { buildServices, type Services } from '../../src/services.js';
import { importCatalog } from '../../src/catalog/import/catalog-importer.js';
import { catalogFile, product } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface OpsGateway {
  url: string;
  services: Services;
  logLines: Record<string, unknown>[];
  logText: () => string;
  key(options?: { rpm?: number; signingSecret?: boolean }): Promise<{ key: string; signingSecret?: string | undefined }>;
  close(): Promise<void>;
}

/** A gateway app over `db` with the given ops dependencies and a logger we can read. */
export async function startOpsGateway(db: TestDatabase | Awaited<ReturnType<typeof openDatabase>>, ops: OpsDeps = {}): Promise<OpsGateway> {
  const logLines: Record<string, unknown>[] = [];
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      for (const line of String(chunk).split('\n')) if (line) logLines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({ LOG_LEVEL: 'info' });
  const services = buildServices(db);
  const logger = pino({ level: 'info', base: undefined }, sink);
  const rateLimits = memoryStores();
  const listening: Listening = await listenOn(createApp({ config, logger, rateLimits, ...services, ops: { database: db, ...ops } }), '127.0.0.1', 0);
  return {
    url: listening.url,
    services,
    logLines,
    logText: () => text,
    async key({ rpm, signingSecret } = {}) {
      const created = await services.keys.create({
        merchantIds: ['ops-shop'],
        env: config.env,
        scopes: ['*'],
        tier: 'enterprise',
        rpm: rpm ?? 1_000_000,
        rpd: 10_000_000,
        signingSecret,
      });
      return { key: created.key, signingSecret: created.signingSecret };
    },
    async close() {
      listening.server.closeAllConnections();
      await listening.close();
    },
  };
}

/** A test database with the ops shop's one product (`chair`) and a gateway over it. */
export interface OpsShop {
  db: TestDatabase;
  gateway: OpsGateway;
  close(): Promise<void>;
}

export async function openOpsShop(): Promise<OpsShop> {
  const db = await createTestDatabase();
  let gateway: OpsGateway;
  try {
    await importCatalog(db, 'ops-shop', catalogFile([product({ id: 'chair' })]));
    gateway = await startOpsGateway(db);
  } catch (error) {
    await db.close(); // a start that failed leaves no database open behind it
    throw error;
  }
  return {
    db,
    gateway,
    async close() {
      await gateway.close();
      await db.close();
    },
  };
}
