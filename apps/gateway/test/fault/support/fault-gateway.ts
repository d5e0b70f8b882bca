/**
 * The fault suite's gateway: started as `serve` starts it (src/server.ts) on a PostgreSQL cluster
 * and a Redis server of the suite's own (./throwaway-services.ts), with a local webhook receiver as
 * the merchant's endpoint and the merchant's catalog imported; every log line kept for the test to
 * read. `close()` stops the gateway and removes the cluster, the server and the receiver — whatever
 * of them had started when a start failed.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { KeyService } from '../../../src/auth/key-service.js';
import { KeyStore } from '../../../src/auth/key-store.js';
import { importCatalog } from '../../../src/catalog/import/catalog-importer.js';
import { loadConfig } from '../../../src/config/config.js';
import type { Product } from '../../../src/contract/types.js';
import { startGateway, type RunningGateway } from '../../../src/server.js';
import { newEndpointSecret } from '../../../src/webhooks/endpoint-secrets.js';
import { WebhookStore } from '../../../src/webhooks/webhook-store.js';
import { catalogFile } from '../../support/fixtures.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { startThrowawayPostgres, startThrowawayRedis, type ThrowawayPostgres, type ThrowawayRedis } from './throwaway-services.js';

/** A line of the gateway's log (pino's JSON). */
export type LogLine = { level: number; msg: string; [key: string]: unknown };

export interface FaultGateway {
  pgc: ThrowawayPostgres;
  redis: ThrowawayRedis;
  /** The merchant's webhook endpoint (its path: /orders). */
  receiver: Receiver;
  gateway: RunningGateway;
  /** Keys on the gateway's database. */
  keys: KeyService;
  /** Every line the gateway logged (level info), in order. */
  logs: LogLine[];
  close(): Promise<void>;
}

export async function startFaultGateway(merchant: string, products: Product[]): Promise<FaultGateway> {
  const logs: LogLine[] = [];
  const quiet = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const parts: { pgc?: ThrowawayPostgres; redis?: ThrowawayRedis; receiver?: Receiver; gateway?: RunningGateway } = {};
  const close = async () => {
    await parts.gateway?.close({ graceMs: 1_000 }).catch(() => {});
    await Promise.all([parts.pgc?.destroy(), parts.redis?.destroy(), parts.receiver?.close()]);
  };
  try {
    const [pgc, redis, receiver] = await Promise.allSettled([startThrowawayPostgres(), startThrowawayRedis(), startReceiver()]);
    if (pgc.status === 'fulfilled') parts.pgc = pgc.value;
    if (redis.status === 'fulfilled') parts.redis = redis.value;
    if (receiver.status === 'fulfilled') parts.receiver = receiver.value;
    for (const started of [pgc, redis, receiver]) if (started.status === 'rejected') throw started.reason;
    const config = loadConfig({
      GATEWAY_ENV: 'sandbox',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: parts.pgc!.url,
      REDIS_URL: parts.redis!.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'info',
    });
    const gateway = (parts.gateway = await startGateway(config, pino({ level: 'info' }, quiet)));
    const keys = new KeyService(new KeyStore(gateway.db));
    await importCatalog(gateway.db, merchant, catalogFile(products));
    await new WebhookStore(gateway.db).createEndpoint(merchant, `${parts.receiver!.url}/orders`, newEndpointSecret());
    return { pgc: parts.pgc!, redis: parts.redis!, receiver: parts.receiver!, gateway, keys, logs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
