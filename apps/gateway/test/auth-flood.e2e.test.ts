/**
 * Abuse without a valid key is cheap to refuse, and never locks out a valid key. Every key is
 * held in memory (KeyDirectory), so a flood of well-formed random keys costs no database read at
 * all; the flooding address gets 429 (with Retry-After) once it has used up its failed
 * authentications — and a valid key sent from that very address, even one created during the
 * flood and never seen before, is served. A legitimate client's p50 is printed with and without
 * the flood (figures only: timing is not asserted, the machine is shared). Clients are told apart
 * by their loopback source address (127.0.0.x).
 */
import { randomInt } from 'node:crypto';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateApiKey, hashApiKey } from '../src/auth/api-key.js';
import { KeyStore } from '../src/auth/key-store.js';
import { product } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const LIMIT = 20;
let gateway: TestGateway;
let key: string;
const lookups = vi.spyOn(KeyStore.prototype, 'findByHash');
/** Loads of the whole key directory: at start and on each change to keys, never per request. */
const loads = vi.spyOn(KeyStore.prototype, 'all');

beforeAll(async () => {
  gateway = await startTestGateway({ env: { AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW: '60' } });
  await gateway.importProducts('flood-shop', [product({ id: 'p-1' })]);
  key = await gateway.createKey({ merchantIds: ['flood-shop'] });
});
afterAll(() => gateway?.close());

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | undefined;
  body: string;
}

/** One GET of a product from a given loopback address, over a keep-alive agent. */
function get(agent: Agent, from: string, apiKey: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${gateway.url}/acp/products/p-1`, { agent, localAddress: from, headers: { 'X-ACP-API-Key': apiKey } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started, retryAfter: res.headers['retry-after'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const tally = (answers: Answer[]) => [...answers.reduce((m, a) => m.set(a.status, (m.get(a.status) ?? 0) + 1), new Map<number, number>())].map(([s, n]) => `${s}×${n}`).join(' ');

async function legitimate(agent: Agent, count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++) answers.push(await get(agent, '127.0.0.1', key));
  return answers;
}

describe('a flood of random keys', () => {
  it('is refused with 429 after its failures, without any database read, while valid traffic is served', async () => {
    const legit = new Agent({ keepAlive: true, maxSockets: 1 });
    const flooding = new Agent({ keepAlive: true, maxSockets: 16 });
    try {
      await legitimate(legit, 30); // warm: the key is remembered
      const quiet = await legitimate(legit, 200);

      const lookupsBefore = lookups.mock.calls.length;
      const loadsBefore = loads.mock.calls.length;
      let running = true;
      const flood: Answer[] = [];
      const flooder = async () => {
        while (running && flood.length < 4_000) flood.push(await get(flooding, '127.0.0.2', generateApiKey('development')));
      };
      const flooders = Array.from({ length: 16 }, flooder);
      await expect.poll(() => flood.some((a) => a.status === 429), { timeout: 30_000 }).toBe(true); // the flood is on: refused already
      const loud = await legitimate(legit, 200);
      running = false;
      await Promise.all(flooders);
      const floodLookups = lookups.mock.calls.length - lookupsBefore + loads.mock.calls.length - loadsBefore;

      const [p50quiet, p50loud] = [median(quiet.map((a) => a.ms)), median(loud.map((a) => a.ms))];
      console.log(
        `[flood] legitimate p50 ${p50quiet.toFixed(2)} ms without the flood, ${p50loud.toFixed(2)} ms with it (×${(p50loud / p50quiet).toFixed(2)}); ` +
          `flooder: ${flood.length} requests of random keys, ${tally(flood)}; key reads from the database during the flood: ${floodLookups}`,
      );

      expect([...quiet, ...loud].every((a) => a.status === 200)).toBe(true);
      const refused = flood.filter((a) => a.status === 429);
      const failed = flood.filter((a) => a.status === 401);
      expect(failed.length + refused.length).toBe(flood.length);
      expect(failed.length).toBe(LIMIT); // counted in this process's memory: exactly the budget
      expect(refused.length).toBeGreaterThan(flood.length / 2);
      expect(floodLookups).toBe(0);
      const sample = refused[0]!;
      expect(Number(sample.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(sample.body)).toEqual({ error: { type: 'rate_limit_exceeded', message: expect.stringMatching(/failed authentications/), retry_after: Number(sample.retryAfter) } });
    } finally {
      legit.destroy();
      flooding.destroy();
    }
  }, 120_000);

  it('lets a blocked address in with any valid key, even one created after the flood began and never seen', async () => {
    const agent = new Agent({ keepAlive: false });
    const blocked = '127.0.0.2'; // blocked by the test above
    expect((await get(agent, blocked, generateApiKey('development'))).status).toBe(429);
    expect((await get(agent, blocked, key)).status).toBe(200);
    const fresh = await gateway.createKey({ merchantIds: ['flood-shop'] });
    const first = await get(agent, blocked, fresh);
    expect(first.status).toBe(200);
  });

  it('serves a valid key first seen from an address that is flooding, as soon as its creation is heard', async () => {
    const flooding = new Agent({ keepAlive: true, maxSockets: 8 });
    const agent = new Agent({ keepAlive: false });
    const shared = '127.0.0.4'; // an office or an agent platform: one address, many clients
    try {
      let running = true;
      const flood: Answer[] = [];
      const flooders = Array.from({ length: 8 }, async () => {
        while (running && flood.length < 2_000) flood.push(await get(flooding, shared, generateApiKey('development')));
      });
      await expect.poll(() => flood.filter((a) => a.status === 429).length, { timeout: 30_000 }).toBeGreaterThan(0);
      const before = lookups.mock.calls.length;
      // Created by another process (the CLI, SQL): this gateway learns of it from the database's NOTIFY alone.
      const other = generateApiKey('development');
      await new KeyStore(gateway.db).create(keyRecord(other));
      // NOTIFY arrives within milliseconds: the 5 s limit is a bound for a busy machine, below the refusal's 10 s.
      const statuses: number[] = [];
      await expect.poll(async () => statuses[statuses.push((await get(agent, shared, other)).status) - 1], { timeout: 5_000, interval: 20 }).toBe(200);
      for (const status of statuses.slice(0, -1)) expect([401, 429]).toContain(status); // the NOTIFY not yet heard: an unknown key like the flood's
      // Created through this gateway: known at once.
      expect((await get(agent, shared, await gateway.createKey({ merchantIds: ['flood-shop'] }))).status).toBe(200);
      running = false;
      await Promise.all(flooders);
      expect(lookups.mock.calls.length - before).toBe(0);
    } finally {
      flooding.destroy();
    }
  }, 60_000);
});

/** A key record as another process (the CLI) would store it. */
const keyRecord = (key: string) => ({
  id: `key_flood_${randomInt(1e9)}`,
  keyHash: hashApiKey(key),
  last4: key.slice(-4),
  environment: 'development' as const,
  scopes: ['*'],
  tier: 'enterprise' as const,
  rpm: 1_000_000,
  rpd: 10_000_000,
  signingSecret: null,
  merchantIds: ['flood-shop'],
});

describe('a refused key', () => {
  it('is refused from memory, and accepted once a key with it is created elsewhere', async () => {
    const agent = new Agent({ keepAlive: false });
    const from = '127.0.0.3';
    const unknown = generateApiKey('development');
    const before = lookups.mock.calls.length;
    for (let i = 0; i < 5; i++) expect((await get(agent, from, unknown)).status).toBe(401);
    expect(lookups.mock.calls.length - before).toBe(0);

    // Created by another process (the CLI, SQL): only the database's NOTIFY can tell this one.
    await new KeyStore(gateway.db).create(keyRecord(unknown));
    // NOTIFY arrives within milliseconds: the 5 s limit is a bound for a busy machine, never the refusal's 10 s.
    await expect.poll(async () => (await get(agent, from, unknown)).status, { timeout: 5_000, interval: 20 }).toBe(200);
  });
});

describe('behind a proxy (TRUST_PROXY=1)', () => {
  it("counts failures by the client address X-Forwarded-For names, not the proxy's", async () => {
    const behind = await startTestGateway({ env: { AUTH_FAILURE_LIMIT: '2', TRUST_PROXY: '1' } });
    try {
      const fail = (client: string) =>
        fetch(`${behind.url}/acp/products/p-1`, { headers: { 'X-ACP-API-Key': generateApiKey('development'), 'X-Forwarded-For': client } }).then((r) => r.status);
      expect([await fail('203.0.113.7'), await fail('203.0.113.7'), await fail('203.0.113.7')]).toEqual([401, 401, 429]);
      expect(await fail('203.0.113.8')).toBe(401); // another client behind the same proxy
    } finally {
      await behind.close();
    }
  });
});

describe.runIf(Boolean(process.env.REDIS_URL))('with REDIS_URL', () => {
  it('shares the failed-authentication budget between gateways', async () => {
    const env = { AUTH_FAILURE_LIMIT: '5', AUTH_FAILURE_WINDOW: '60', REDIS_URL: process.env.REDIS_URL! };
    const a = await startTestGateway({ env });
    const b = await startTestGateway({ env, db: a.db });
    try {
      const agent = new Agent({ keepAlive: false });
      const from = `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(2, 250)}`; // an address no other run shares
      const fail = (on: TestGateway) =>
        new Promise<number>((resolve, reject) => {
          request(`${on.url}/acp/products/p-1`, { agent, localAddress: from, headers: { 'X-ACP-API-Key': generateApiKey('development') } }, (res) => {
            res.resume();
            resolve(res.statusCode!);
          })
            .on('error', reject)
            .end();
        });
      const onA = [];
      for (let i = 0; i < 5; i++) onA.push(await fail(a));
      expect(onA).toEqual([401, 401, 401, 401, 401]);
      expect(await fail(b)).toBe(429);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
