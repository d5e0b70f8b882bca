/**
 * A real gateway for a test file: its own database, listening on a free
 * loopback port, with helpers to create merchants' catalogs and keys.
 */
import pino from 'pino';
import { importCatalog } from '../../src/catalog/import/catalog-importer.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { Product } from '../../src/contract/types.js';
import { startGatewayParts } from '../../src/lifecycle.js';
import type { Services } from '../../src/services.js';
import type { PaymentWorker } from '../../src/payments/operations/payment-worker.js';
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
  // The parts `serve` starts (src/lifecycle.ts), on this database, without what only `serve` runs: the demo,
  // the persisted UCP signing keys, the idempotency sweeper, metrics, the webhook worker, and the payment worker
  // polling unless asked for (tests drain it when they mean to).
  const { services, listening, paymentWorker, stop } = await startGatewayParts(config, logger, {
    db,
    listen: { host: '127.0.0.1', port: 0 },
    serving: false,
    paymentWorker: { pollIntervalMs: 100, polling },
  });
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
      await stop({ graceMs: 0 }); // connections in flight dropped at once
      if (!sharedDb) await db.close();
    },
  };
}
