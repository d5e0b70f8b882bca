/**
 * Starting the gateway as `serve` does: its parts in order (lifecycle.ts, which also stops them on a
 * failure and on close), then what the operator is told. Listening itself is http/listener.ts's.
 */
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import type { CloseOptions, Listening } from './http/listener.js';
import { startGatewayParts } from './lifecycle.js';
import { compactHeap } from './ops/heap-compaction.js';
import type { Services } from './services.js';

export { checkPortFree, KEEP_ALIVE_TIMEOUT_MS, ListenError, listenOn, SHUTDOWN_GRACE_MS, type CloseOptions, type Listening } from './http/listener.js';

/** From this many products loaded at start, the loading garbage is collected at once (ops/heap-compaction.ts). */
const LARGE_CATALOG_PRODUCTS = 50_000;

export interface RunningGateway extends Listening {
  db: Database;
  /** The services the HTTP handlers call (and CLI commands run through the local socket). */
  services: Services;
}

/** migrate, seed the demo in development, listen. `print` receives the lines meant for the operator. */
export async function startGateway(config: Config, logger: Logger, print: (line: string) => void = () => {}): Promise<RunningGateway> {
  const { db, services, listening, products, stop } = await startGatewayParts(config, logger, { print });
  logger.info({ webhookWorker: config.webhookWorker, poolSize: db.kind === 'postgresql' ? config.databasePoolSize : undefined }, 'gateway started');
  if (config.env === 'production' && config.paymentProvider === 'none') {
    logger.warn('PAYMENT_PROVIDER=none: this gateway takes no money — orders through our API are taken without a payment and agents cannot pay (docs/payments.md)');
  }
  // A large catalog's loading garbage collected at once rather than held for minutes (ops/heap-compaction.ts).
  if (products >= LARGE_CATALOG_PRODUCTS) {
    setImmediate(() => {
      const ms = compactHeap();
      if (ms !== undefined) logger.info({ ms: Math.round(ms), rssMb: Math.round(process.memoryUsage.rss() / 2 ** 20) }, 'heap compacted after the catalog load');
    });
  }
  return {
    ...listening,
    db,
    services,
    // HTTP drains (bounded) while the workers finish their current attempt; the database closes after both.
    close: (options?: CloseOptions) => stop(options),
  };
}
