import { createServer, type RequestListener, type Server } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { messageClasses } from './http/express-messages.js';
import type { Config } from './config/config.js';
import { openDatabase, type Database } from './db/database.js';
import { seedDemo } from './demo-seed.js';
import { startExpirySweeper } from './idempotency/expiry-sweeper.js';
import { compactHeap } from './ops/heap-compaction.js';
import { createMetrics } from './http/metrics.js';
import { openRateLimitStores } from './rate-limit/open-stores.js';
import { buildServices, type Services } from './services.js';
import { ucpWebhookFormat } from './ucp/webhooks/ucp-order-webhook.js';
import { startDeliveryWorker } from './webhooks/delivery-worker.js';
import { PaymentWorker } from './payments/operations/payment-worker.js';

export class ListenError extends Error {
  override name = 'ListenError';
}

export interface CloseOptions {
  /** How long requests in flight may take to finish before their connections are dropped (default 10 s). */
  graceMs?: number;
}

export interface Listening {
  server: Server;
  url: string;
  /**
   * Stops accepting, closes idle keep-alive connections (and each busy one as
   * soon as its response is sent), waits up to `graceMs` for the requests in
   * flight, then drops the connections left.
   */
  close(options?: CloseOptions): Promise<void>;
}

export const SHUTDOWN_GRACE_MS = 10_000;
/** From this many products loaded at start, the loading garbage is collected at once (ops/heap-compaction.ts). */
const LARGE_CATALOG_PRODUCTS = 50_000;

export interface RunningGateway extends Listening {
  db: Database;
  /** The services the HTTP handlers call (and CLI commands run through the local socket). */
  services: Services;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (error.code === 'EADDRINUSE') reject(new ListenError(`PORT ${port} is already in use on ${host} (set PORT to another port)`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new ListenError(`HOST ${host} is not an address of this machine`));
      else if (error.code === 'EACCES') reject(new ListenError(`no permission to listen on ${where}`));
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}

/** Fails (ListenError) when host:port cannot be listened on now: a check before a slow start-up. */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await listen(probe, host, port);
  await new Promise((resolve) => probe.close(resolve));
}

/** Serves a request handler on host:port (0 = any free port). */
/**
 * How long an idle keep-alive connection stays open: longer than the idle timeout of the load
 * balancers put in front of replicas (nginx's upstream keepalive_timeout and AWS ALB's are 60 s).
 * With Node's default, 5 s, a balancer sends a request on a connection the gateway is closing at
 * that moment and answers 502 — for a POST it cannot retry.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export async function listenOn(handler: RequestListener, host: string, port: number): Promise<Listening> {
  const server = createServer(messageClasses(handler), handler);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000; // Node wants it above keepAliveTimeout
  await listen(server, host, port);
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    close({ graceMs = SHUTDOWN_GRACE_MS } = {}) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      return closed.finally(() => {
        clearInterval(sweep);
        clearTimeout(force);
      });
    },
  };
}

/** migrate, seed the demo in development, listen. `print` receives the lines meant for the operator. */
export async function startGateway(config: Config, logger: Logger, print: (line: string) => void = () => {}): Promise<RunningGateway> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize, preparedStatements: config.databasePreparedStatements });
  try {
    const applied = await db.migrate({ onWait: () => logger.info('another process is migrating the database: waiting for it') });
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
    const services = buildServices(db, { config, logger });
    if (config.env === 'development') {
      const seeded = await seedDemo(services);
      if (seeded) {
        print(`Seeded merchant "demo" with ${seeded.products} products.`);
        print(`Development API key for merchant "demo" (shown once, stored hashed): ${seeded.key}`);
        print('For the console, create an operator credential: pnpm gateway operators create --name YOU --access full --all-merchants');
      }
    }
    // The search index is built from the database (persisted vectors) before the first request.
    const warm = await services.catalog.warmUp();
    const rateLimits = await openRateLimitStores(config.redisUrl, logger);
    await services.keys.listen(db); // authenticated keys are remembered while changes to them are heard
    await services.shipping.profiles.listen(db); // so are shipping profiles
    await services.discounts.active.listen(db); // and discounts
    await services.paymentAccounts.cache.listen(db); // and merchants' Stripe accounts (the payment handlers offered)
    await services.ucpSigningKeys.load(); // UCP signing keys: the same on every replica (ucp/signing-keys.ts), re-read every 30 s
    services.ucpSigningKeys.start();
    logger.info({ source: services.ucpSigningKeys.source, signer: services.ucpSigningKeys.signer?.kid, published: services.ucpSigningKeys.published.map((key) => key.kid) }, 'UCP signing keys');
    const stopSweeper = startExpirySweeper(services.idempotency, logger);
    const metrics = createMetrics({ processMetrics: true });
    const app = createApp({ config, logger, rateLimits, ...services, ops: { metrics, database: db, missingVectors: () => services.catalog.searchIndex.missingVectors() } });
    const listening = await listenOn(app, config.host, config.port).catch(async (error: unknown) => {
      stopSweeper();
      services.ucpSigningKeys.stop();
      await rateLimits.close();
      await services.keys.close();
      await services.shipping.profiles.close();
      await services.discounts.active.close();
      await services.catalog.close();
      throw error;
    });
    // WEBHOOK_WORKER=off leaves the outbox to other replicas; WEBHOOK_RETRY_SCHEDULE replaces the default delays.
    const webhookWorker = config.webhookWorker
      ? startDeliveryWorker(db, config, logger, {
          onAttempt: ({ state }) => metrics.webhookAttempts.inc({ outcome: state }),
          ...(config.webhookRetrySchedule ? { schedule: config.webhookRetrySchedule } : {}),
          formats: {
            ucp: ucpWebhookFormat({
              signer: () => services.ucpSigningKeys.signer,
              businessProfileUrl: new URL('/.well-known/ucp', config.publicBaseUrl ?? listening.url).href,
              permalinks: { orderUrlTemplate: config.orderUrlTemplate, storefrontUrl: config.storefrontUrl },
            }),
          },
        })
      : undefined;
    // Payments left pending (a PSP unreachable, a process killed mid-payment) are run again; several processes share them safely.
    const paymentWorker = new PaymentWorker(services.payments, { logger });
    paymentWorker.start();
    logger.info({ webhookWorker: config.webhookWorker, poolSize: db.kind === 'postgresql' ? config.databasePoolSize : undefined }, 'gateway started');
    if (config.env === 'production' && config.paymentProvider === 'none') {
      logger.warn('PAYMENT_PROVIDER=none: this gateway takes no money — orders through our API are taken without a payment and agents cannot pay (docs/payments.md)');
    }
    // A large catalog's loading garbage collected at once rather than held for minutes (ops/heap-compaction.ts).
    if (warm.products >= LARGE_CATALOG_PRODUCTS) {
      setImmediate(() => {
        const ms = compactHeap();
        if (ms !== undefined) logger.info({ ms: Math.round(ms), rssMb: Math.round(process.memoryUsage.rss() / 2 ** 20) }, 'heap compacted after the catalog load');
      });
    }
    return {
      ...listening,
      db,
      services,
      async close(options?: CloseOptions) {
        // HTTP drains (bounded) while the worker finishes its current attempt; the database closes after both.
        await Promise.all([listening.close(options), webhookWorker?.stop(), paymentWorker.stop()]);
        await services.admin.audit.settled(); // every admin write answered has its audit entry before the database closes
        stopSweeper();
        services.ucpSigningKeys.stop();
        await rateLimits.close();
        await services.keys.close();
        await services.shipping.profiles.close();
        await services.discounts.active.close();
        await services.catalog.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
