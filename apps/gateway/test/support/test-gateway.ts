/**
 * A real gateway for a test file: its own database, listening on a free
 * loopback port, with helpers to create merchants' catalogs and keys.
 */
import pino from 'pino';
import { importCatalog } from '../../src/catalog/import/catalog-importer.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { Product } from '../../src/contract/types.js';
import { createApp } from '../../src/app.js';
import { openRateLimitStores } from '../../src/rate-limit/open-stores.js';
import { listenOn } from '../../src/server.js';
import { buildServices, type Services } from '../../src/services.js';
import { PaymentWorker } from '../../src/payments/operations/payment-worker.js';
import type { CreateKeyOptions } from '../../src/auth/key-service.js';
import { catalogFile } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestGateway {
  url: string;
  db: TestDatabase;
  services: Services;
  config: Config;
  /** The payment worker as `serve` runs it (started only with `paymentWorker: true`; `drain()` runs what is due now). */
  paymentWorker: PaymentWorker;
  /** Imports products for a merchant (created if new). */
  importProducts(merchantId: string, products: Product[]): Promise<void>;
  /**
   * Creates a key and returns it: all scopes, and limits high enough that tests
   * never meet them (enterprise tier) unless they pass a tier of their own.
   */
  createKey(options: Partial<CreateKeyOptions> & { merchantIds: string[] }): Promise<string>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  /** Settings, as environment variables (REDIS_URL switches the rate-limit counters to Redis). */
  env?: Record<string, string>;
  /** Share another gateway's database (a second replica). */
  db?: TestDatabase;
  /** Start the payment worker polling, as `serve` does (default: not started; tests drain it when they mean to). */
  paymentWorker?: boolean;
}

export async function startTestGateway(options: TestGatewayOptions | Record<string, string> = {}): Promise<TestGateway> {
  const { env = {}, db: sharedDb, paymentWorker: polling = false } = ('env' in options || 'db' in options || 'paymentWorker' in options ? options : { env: options }) as TestGatewayOptions;
  // Tests send many bad keys on purpose: failed authentications are not limited unless a test says so.
  const config = loadConfig({ LOG_LEVEL: 'silent', AUTH_FAILURE_LIMIT: '0', ...env });
  const db = sharedDb ?? (await createTestDatabase());
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'silent' });
  const services = buildServices(db, { config, logger });
  await services.keys.listen(db);
  await services.shipping.profiles.listen(db); // as `serve` does: profiles in memory while changes to them are heard
  await services.discounts.active.listen(db); // and discounts
  await services.catalog.warmUp(); // as `serve` does: the catalog read model and search index load, then follow changes
  const rateLimits = await openRateLimitStores(config.redisUrl, logger);
  const listening = await listenOn(createApp({ config, logger, rateLimits, ...services }), '127.0.0.1', 0);
  const paymentWorker = new PaymentWorker(services.payments, { logger, pollIntervalMs: 100 });
  if (polling) paymentWorker.start();
  return {
    url: listening.url,
    db,
    services,
    config,
    paymentWorker,
    async importProducts(merchantId, products) {
      await importCatalog(db, merchantId, catalogFile(products));
    },
    async createKey(options) {
      const limits = options.tier ? {} : { tier: 'enterprise' as const, rpm: 1_000_000, rpd: 10_000_000 };
      const { key } = await services.keys.create({ env: config.env, scopes: ['*'], ...limits, ...options });
      return key;
    },
    async close() {
      await paymentWorker.stop();
      listening.server.closeAllConnections();
      await listening.close();
      await rateLimits.close();
      await services.keys.close();
      await services.shipping.profiles.close();
      await services.discounts.active.close();
      await services.catalog.close();
      if (!sharedDb) await db.close();
    },
  };
}
