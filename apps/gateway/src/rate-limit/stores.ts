/**
 * Where rate-limit counters live: in this process (default), or in Redis
 * (`REDIS_URL`) so that every gateway replica shares one budget per key.
 * express-rate-limit's Store is the port; MemoryStore and RedisStore its adapters.
 */
import { MemoryStore, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { createClient } from 'redis';
import type { Logger } from 'pino';
import { redisKeyWindows, type KeyWindows } from './key-windows.js';

export interface RateLimitStores {
  kind: 'memory' | 'redis';
  minute: Store;
  day: Store;
  /** Failed authentications per client address (see AuthFailureLimiter). */
  authFailures: Store;
  /** Both of a key's windows in one round trip, where the store is remote (Redis). */
  keyWindows?: KeyWindows;
  close(): Promise<void>;
}

export function memoryStores(): RateLimitStores {
  const authFailures = new MemoryStore();
  return {
    kind: 'memory',
    minute: new MemoryStore(),
    day: new MemoryStore(),
    authFailures,
    async close() {
      authFailures.shutdown();
    },
  };
}

/**
 * Redis counters. Commands fail fast while Redis is unreachable (no offline
 * queue), and the limiter then lets requests through: availability over
 * strictness, logged — never a wall of 500s.
 */
export async function redisStores(url: string, logger: Logger): Promise<RateLimitStores> {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000) },
  });
  let reported = false;
  client.on('error', (error: Error) => {
    if (!reported) logger.warn({ err: error.message }, 'redis unavailable: rate limits fail open until it is back');
    reported = true;
  });
  client.on('ready', () => {
    if (reported) logger.info('redis available again: rate limits enforced');
    reported = false;
  });
  await client.connect();
  const sendCommand = (...args: string[]) => client.sendCommand(args) as Promise<RedisReply>;
  return {
    kind: 'redis',
    minute: new RedisStore({ sendCommand, prefix: 'cg:rl:m:' }),
    day: new RedisStore({ sendCommand, prefix: 'cg:rl:d:' }),
    keyWindows: redisKeyWindows(sendCommand, { minutePrefix: 'cg:rl:m:', dayPrefix: 'cg:rl:d:' }),
    authFailures: new RedisStore({ sendCommand, prefix: 'cg:rl:af:' }),
    async close() {
      await client.close().catch(() => client.destroy());
    },
  };
}
