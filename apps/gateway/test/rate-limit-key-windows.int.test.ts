/**
 * An API key's minute and day windows counted in one Redis round trip (rate-limit/key-windows.ts),
 * on the real Redis of REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Options } from 'express-rate-limit';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisKeyWindows, type KeyWindows } from '../src/rate-limit/key-windows.js';

const url = process.env.REDIS_URL;

describe.skipIf(!url)('redisKeyWindows', () => {
  const client = createClient({ url });
  const send = (...args: string[]) => client.sendCommand(args) as Promise<RedisReply>;
  const run = randomBytes(6).toString('hex');
  const minutePrefix = `cg:test:${run}:m:`;
  const dayPrefix = `cg:test:${run}:d:`;
  let windows: KeyWindows;

  beforeAll(async () => {
    await client.connect();
    windows = redisKeyWindows(send, { minutePrefix, dayPrefix });
  });
  afterAll(async () => {
    const keys = await client.keys(`cg:test:${run}:*`);
    if (keys.length) await client.del(keys);
    await client.close();
  });

  it('counts both windows in one script; past the minute limit the day is not counted', async () => {
    const first = await windows.count('k', 2);
    expect(first.minute.totalHits).toBe(1);
    expect(first.day?.totalHits).toBe(1);
    expect((await windows.count('k', 2)).day?.totalHits).toBe(2);
    const refused = await windows.count('k', 2);
    expect(refused.minute.totalHits).toBe(3);
    expect(refused.day).toBeUndefined();
    expect(await client.get(`${dayPrefix}k`)).toBe('2');
    const minuteTtl = await client.pTTL(`${minutePrefix}k`);
    expect(minuteTtl).toBeGreaterThan(0);
    expect(minuteTtl).toBeLessThanOrEqual(60_000);
    expect(await client.pTTL(`${dayPrefix}k`)).toBeGreaterThan(60_000);
    expect(refused.minute.resetTime!.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
    expect(first.day!.resetTime!.getTime() - Date.now()).toBeGreaterThan(60_000);
  });

  it("counts in rate-limit-redis's own counters, so replicas counting either way share one budget", async () => {
    const store = new RedisStore({ sendCommand: send, prefix: minutePrefix });
    await store.init({ windowMs: 60_000 } as Options);
    await store.increment('shared');
    expect((await windows.count('shared', 100)).minute.totalHits).toBe(2);
    expect((await store.increment('shared')).totalHits).toBe(3);
  });

  it('loads its script again when Redis has forgotten it (a restart)', async () => {
    await windows.count('again', 5);
    await client.sendCommand(['SCRIPT', 'FLUSH']);
    expect((await windows.count('again', 5)).minute.totalHits).toBe(2);
  });
});
