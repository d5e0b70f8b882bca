/**
 * What a running gateway is made of, in the order it starts — and, reversed, stops (kernel/lifecycle.ts
 * runs the list: a start that fails stops what had started). The one list behind `serve` (server.ts)
 * and the test gateway (test/support/test-gateway.ts):
 *
 *   database (opened, migrated) → services (the demo seeded on a first development start) → the
 *   catalog warmed → rate-limit counters → what is held in memory while its changes are heard (API
 *   keys, shipping profiles, discounts, payment accounts) → UCP signing keys → the idempotency
 *   expiry sweeper → metrics → the admin audit log → HTTP with the webhook delivery worker and the
 *   payment worker (stopped together: requests drain while each worker finishes its attempt)
 *
 *   const gateway = await startGatewayParts(config, logger, { print }); … await gateway.stop({ graceMs });
 */
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config/config.js';
import { openDatabase, type Database } from './db/database.js';
import { seedDemo } from './demo-seed.js';
import { type CloseOptions, listenOn, type Listening } from './http/listener.js';
import { createMetrics, type Metrics } from './http/metrics.js';
import { startExpirySweeper } from './idempotency/expiry-sweeper.js';
import { type Component, startInOrder, together } from './kernel/lifecycle.js';
import { PaymentWorker } from './payments/operations/payment-worker.js';
import { openRateLimitStores } from './rate-limit/open-stores.js';
import type { RateLimitStores } from './rate-limit/stores.js';
import { buildServices, type Services } from './services.js';
import { ucpWebhookFormat } from './ucp/webhooks/ucp-order-webhook.js';
import { startDeliveryWorker, type DeliveryWorker } from './webhooks/delivery-worker.js';

export interface GatewayOptions {
  /** Receives the lines meant for the operator (the demo merchant's key on a first development start). */
  print?: (line: string) => void;
  /**
   * A database already open and migrated, which the gateway neither migrates nor closes (the test
   * gateway's). Default: the settings' database, opened, migrated, and closed last.
   */
  db?: Database;
  /** Where to listen (default: the settings' HOST and PORT; port 0 is any free port). */
  listen?: { host: string; port: number };
  /**
   * Whether this is `serve` (default true). Only `serve` seeds the demo, loads the persisted UCP
   * signing keys (re-read every 30 s), sweeps expired idempotency keys, keeps metrics (with the ops
   * endpoints), runs the webhook delivery worker (WEBHOOK_WORKER) and polls for payments due: the
   * test gateway's tests drive each of these when they mean to.
   */
  serving?: boolean;
  /** The payment worker's poll interval, and whether it polls (default: when serving). */
  paymentWorker?: { pollIntervalMs?: number; polling?: boolean };
}

export interface GatewayParts {
  db: Database;
  /** The services the HTTP handlers call (and CLI commands run through the local socket). */
  services: Services;
  listening: Listening;
  /** The payment worker (polling when serving; the test gateway drains it). */
  paymentWorker: PaymentWorker;
  /** The products loaded by the catalog's warm-up. */
  products: number;
  /** Stops every part, in reverse: HTTP drains (up to `graceMs`) while the workers finish their attempt; the database closes last. */
  stop(options?: CloseOptions): Promise<void>;
}

/** Starts the gateway's parts in order; a part that fails to start stops those before it, and its error is thrown. */
export async function startGatewayParts(config: Config, logger: Logger, options: GatewayOptions = {}): Promise<GatewayParts> {
  const { print = () => {}, serving = true } = options;
  const listenAt = options.listen ?? { host: config.host, port: config.port };
  let db!: Database;
  let services!: Services;
  let products = 0;
  let rateLimits!: RateLimitStores;
  let stopSweeper: (() => void) | undefined;
  let metrics: Metrics | undefined;
  let listening!: Listening;
  let webhookWorker: DeliveryWorker | undefined;
  let paymentWorker!: PaymentWorker;

  const components: Component<CloseOptions | undefined>[] = [
    options.db
      ? { name: 'database (given)', start: () => void (db = options.db!) }
      : {
          name: 'database',
          start: async () => void (db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize, preparedStatements: config.databasePreparedStatements })),
          stop: () => db.close(),
        },
    ...(options.db
      ? []
      : [
          {
            name: 'migrations',
            async start() {
              const applied = await db.migrate({ onWait: () => logger.info('another process is migrating the database: waiting for it') });
              if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
            },
          },
        ]),
    {
      name: 'services',
      async start() {
        services = buildServices(db, { config, logger });
        if (serving && config.env === 'development') {
          const seeded = await seedDemo(services);
          if (seeded) {
            print(`Seeded merchant "demo" with ${seeded.products} products.`);
            print(`Development API key for merchant "demo" (shown once, stored hashed): ${seeded.key}`);
            print('For the console, create an operator credential: pnpm gateway operators create --name YOU --access full --all-merchants');
          }
        }
      },
    },
    // The search index is built from the database (persisted vectors) before the first request.
    { name: 'catalog', start: async () => void ({ products } = await services.catalog.warmUp()), stop: () => services.catalog.close() },
    { name: 'rate-limit counters', start: async () => void (rateLimits = await openRateLimitStores(config.redisUrl, logger)), stop: () => rateLimits.close() },
    // Held in memory while changes to them are heard (NOTIFY): authenticated keys, shipping profiles, discounts, merchants' Stripe accounts.
    { name: 'API keys', start: () => services.keys.listen(db), stop: () => services.keys.close() },
    { name: 'shipping profiles', start: () => services.shipping.profiles.listen(db), stop: () => services.shipping.profiles.close() },
    { name: 'discounts', start: () => services.discounts.active.listen(db), stop: () => services.discounts.active.close() },
    { name: 'payment accounts', start: () => services.paymentAccounts.cache.listen(db), stop: () => services.paymentAccounts.cache.close() },
    ...(serving
      ? [
          {
            // The same on every replica (ucp/signing-keys.ts), re-read every 30 s.
            name: 'UCP signing keys',
            async start() {
              await services.ucpSigningKeys.load();
              services.ucpSigningKeys.start();
              logger.info({ source: services.ucpSigningKeys.source, signer: services.ucpSigningKeys.signer?.kid, published: services.ucpSigningKeys.published.map((key) => key.kid) }, 'UCP signing keys');
            },
            stop: () => services.ucpSigningKeys.stop(),
          },
          { name: 'idempotency expiry sweeper', start: () => void (stopSweeper = startExpirySweeper(services.idempotency, logger)), stop: () => stopSweeper?.() },
          { name: 'metrics', start: () => void (metrics = createMetrics({ processMetrics: true })) },
        ]
      : []),
    // Every admin write answered has its audit entry before the database closes.
    { name: 'admin audit log', stop: () => services.admin.audit.settled() },
    together<CloseOptions | undefined>('serving', [
      {
        name: 'HTTP',
        async start() {
          const ops = metrics ? { ops: { metrics, database: db, missingVectors: () => services.catalog.searchIndex.missingVectors() } } : {};
          const app = createApp({ config, logger, rateLimits, ...services, ...ops });
          listening = await listenOn(app, listenAt.host, listenAt.port);
        },
        stop: (close) => listening.close(close),
      },
      {
        // WEBHOOK_WORKER=off leaves the outbox to other replicas; WEBHOOK_RETRY_SCHEDULE replaces the default delays.
        name: 'webhook delivery worker',
        start() {
          if (!serving || !config.webhookWorker) return;
          webhookWorker = startDeliveryWorker(db, config, logger, {
            onAttempt: ({ state }) => metrics?.webhookAttempts.inc({ outcome: state }),
            ...(config.webhookRetrySchedule ? { schedule: config.webhookRetrySchedule } : {}),
            formats: {
              ucp: ucpWebhookFormat({
                signer: () => services.ucpSigningKeys.signer,
                businessProfileUrl: new URL('/.well-known/ucp', config.publicBaseUrl ?? listening.url).href,
                permalinks: { orderUrlTemplate: config.orderUrlTemplate, storefrontUrl: config.storefrontUrl },
              }),
            },
          });
        },
        stop: () => webhookWorker?.stop(),
      },
      {
        // Payments left pending (a PSP unreachable, a process killed mid-payment) are run again; several processes share them safely.
        name: 'payment worker',
        start() {
          const pollIntervalMs = options.paymentWorker?.pollIntervalMs;
          paymentWorker = new PaymentWorker(services.payments, { logger, ...(pollIntervalMs ? { pollIntervalMs } : {}) });
          if (options.paymentWorker?.polling ?? serving) paymentWorker.start();
        },
        stop: () => paymentWorker.stop(),
      },
    ]),
  ];

  const running = await startInOrder(components);
  return { db, services, listening, paymentWorker, products, stop: (close) => running.stop(close) };
}
