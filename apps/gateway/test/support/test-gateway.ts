/**
 * A real gateway for a test file: its own database, listening on a free
 * loopback port, with helpers to create merchants' catalogs and keys.
 */
import pino from 'pino';
import { importCatalog } from '../../src/catalog/import/catalog-importer.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { Product } from '../../src/contract-types.js';
import { createApp } from '../../src/app.js';
import { listenOn } from '../../src/server.js';
import { buildServices, type Services } from '../../src/services.js';
import type { CreateKeyOptions } from '../../src/auth/key-service.js';
import { catalogFile } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestGateway {
  url: string;
  db: TestDatabase;
  services: Services;
  config: Config;
  /** Imports products for a merchant (created if new). */
  importProducts(merchantId: string, products: Product[]): Promise<void>;
  /** Creates a key (all scopes by default) and returns it. */
  createKey(options: Partial<CreateKeyOptions> & { merchantIds: string[] }): Promise<string>;
  close(): Promise<void>;
}

export async function startTestGateway(env: Record<string, string> = {}): Promise<TestGateway> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const db = await createTestDatabase();
  const services = buildServices(db);
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'silent' });
  const listening = await listenOn(createApp({ config, logger, ...services }), '127.0.0.1', 0);
  return {
    url: listening.url,
    db,
    services,
    config,
    async importProducts(merchantId, products) {
      await importCatalog(db.prisma, merchantId, catalogFile(products));
    },
    async createKey(options) {
      const { key } = await services.keys.create({ env: config.env, scopes: ['*'], ...options });
      return key;
    },
    async close() {
      listening.server.closeAllConnections();
      await listening.close();
      await db.close();
    },
  };
}
