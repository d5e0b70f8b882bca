import type { Logger } from 'pino';
import { memoryStores, redisStores, type RateLimitStores } from './stores.js';

export class RedisUnreachableError extends Error {
  override name = 'RedisUnreachableError';
}

/** Redis counters when `REDIS_URL` is set (it must answer at start-up), else in-process ones. */
export async function openRateLimitStores(redisUrl: string | undefined, logger: Logger): Promise<RateLimitStores> {
  if (!redisUrl) return memoryStores();
  try {
    return await redisStores(redisUrl, logger);
  } catch (error) {
    const where = new URL(redisUrl);
    throw new RedisUnreachableError(`REDIS_URL: cannot connect to ${where.hostname}:${where.port || 6379} (${(error as Error).message})`);
  }
}
