import type { Logger } from 'pino';
import { KeyService } from './auth/key-service.js';
import { KeyStore } from './auth/key-store.js';
import { buildCatalogService, type SearchConfig } from './catalog/build-catalog-search.js';
import type { CatalogService } from './catalog/catalog-service.js';
import { CheckoutService } from './checkout/checkout-service.js';
import { CheckoutStore } from './checkout/checkout-store.js';
import { paymentProvider } from './checkout/payment/providers.js';
import { defaultPricing } from './checkout/pricing/default-pricing.js';
import { defaultPaymentProvider, loadConfig, type Config } from './config/config.js';
import type { Database } from './db/database.js';
import { IdempotencyStore } from './idempotency/idempotency-store.js';
import { EmitService } from './webhooks/emit-service.js';

export interface Services {
  keys: KeyService;
  catalog: CatalogService;
  checkout: CheckoutService;
  idempotency: IdempotencyStore;
  webhooks: EmitService;
}

export interface ServiceOptions {
  /** Settings the services act on (default: loadConfig() of the process environment). */
  config?: Pick<Config, 'env' | 'webhookAllowPrivateTargets'> & Partial<SearchConfig> & Partial<Pick<Config, 'pricing' | 'paymentProvider'>>;
  logger?: Logger;
}

/** Builds every service over one database. */
export function buildServices(db: Database, { config = loadConfig(), logger }: ServiceOptions = {}): Services {
  const catalog = buildCatalogService(db.prisma, { config, logger, sql: db.sql, listen: (channel, handlers) => db.listen(channel, handlers) });
  const services = {
    keys: new KeyService(new KeyStore(db.prisma), (error) => logger?.warn({ err: error }, 'API keys could not be loaded; authentications read the database until they are')),
    catalog,
    checkout: new CheckoutService(
      new CheckoutStore(db.prisma, db.sql),
      defaultPricing(config.pricing),
      paymentProvider(config.paymentProvider ?? defaultPaymentProvider(config.env), config.env),
      (merchantId) => catalog.readModel.catalog(merchantId),
    ),
    idempotency: new IdempotencyStore(db.prisma, db.holders, db.sql),
  };
  const webhooks = new EmitService({
    sessions: services.checkout,
    env: config.env,
    allowPrivateTargets: config.webhookAllowPrivateTargets,
    logger,
  });
  return { ...services, webhooks };
}
