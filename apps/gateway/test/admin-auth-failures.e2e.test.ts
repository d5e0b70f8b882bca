/**
 * Operators are never locked out by others' failures (admin/operator-auth.ts): once an address has
 * used up its failed authentications, what it presents that is not valid gets 429 — and from that
 * very address a valid operator credential, one created after the flood began, and a console
 * session are still served. Behind the shipped compose file's proxy (deploy/compose.yaml,
 * nginx.conf) the gateway trusts one hop, so each client has its own budget. Clients are told apart
 * by their loopback source address (127.0.0.x).
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOperatorToken } from '../src/admin/operator-token.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const LIMIT = 5;
let gateway: TestGateway;
let valid = '';
const agent = new Agent({ keepAlive: false });

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One admin request from a given loopback address. */
function send(from: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${gateway.url}/admin${path}`, { agent, method, localAddress: from, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** A well-formed operator credential no one has: its refusal takes a database read. */
const madeUp = generateOperatorToken;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW: '60' } });
  await gateway.services.merchants.create('shop', 'Shop');
  valid = (await gateway.services.admin.operators.create({ name: 'ops', access: 'full', allMerchants: true })).token;
}, 120_000);
afterAll(async () => {
  agent.destroy();
  await gateway?.close();
});

describe('an address past its failed authentications', () => {
  const blocked = '127.0.0.5';

  beforeAll(async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) statuses.push((await send(blocked, 'GET', '/merchants', bearer(madeUp()))).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429, 429, 429]);
  });

  it('gets 429 with Retry-After, in the admin error shape, for a made-up credential, a malformed one, or a made-up session', async () => {
    const refused = await send(blocked, 'GET', '/merchants', bearer(madeUp()));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refused.body)).toEqual({ error: { type: 'rate_limit_exceeded', message: expect.stringMatching(/failed authentications/), retry_after: expect.any(Number), request_id: expect.any(String) } });
    expect((await send(blocked, 'GET', '/merchants', bearer('nonsense'))).status).toBe(429);
    expect((await send(blocked, 'GET', '/merchants', { cookie: `cg_console=ocs_${'A'.repeat(32)}` })).status).toBe(429);
  });

  it('serves a valid operator credential from that address', async () => {
    const served = await send(blocked, 'GET', '/merchants', bearer(valid));
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body).items.map((m: { id: string }) => m.id)).toContain('shop');
    const created = await send(blocked, 'POST', '/merchants', bearer(valid), JSON.stringify({ id: 'made-while-blocked' }));
    expect(created.status).toBe(201);
  });

  it('serves a credential created after the flood began, at its first request', async () => {
    const { token } = await gateway.services.admin.operators.create({ name: 'newcomer', access: 'read', allMerchants: true });
    expect((await send(blocked, 'GET', '/merchants', bearer(token))).status).toBe(200);
  });

  it('signs in to the console from that address, and serves its session cookie, reads and writes', async () => {
    const signedIn = await send(blocked, 'POST', '/console/session', bearer(valid));
    expect(signedIn.status).toBe(201);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    expect((await send(blocked, 'GET', '/console/session', { cookie })).status).toBe(200);
    const written = await send(blocked, 'POST', '/merchants', { cookie, 'x-console-request': '1' }, JSON.stringify({ id: 'console-while-blocked' }));
    expect(written.status).toBe(201);
  });

  it('still counts what it presents that is not valid, and another address is untouched', async () => {
    expect((await send(blocked, 'GET', '/merchants', bearer(madeUp()))).status).toBe(429);
    expect((await send('127.0.0.6', 'GET', '/merchants', bearer(madeUp()))).status).toBe(401);
  });

  it('audits its refused writes as refused 429', async () => {
    const refused = await send(blocked, 'POST', '/merchants', bearer(madeUp()), JSON.stringify({ id: 'never' }));
    expect(refused.status).toBe(429);
    await gateway.services.admin.audit.settled();
    const entries = await send('127.0.0.1', 'GET', '/audit?limit=1', bearer(valid));
    expect(JSON.parse(entries.body).items[0]).toMatchObject({ operator_id: null, operation: 'createMerchant', outcome: 'refused', status: 429, request_id: JSON.parse(refused.body).error.request_id });
  });
});

describe('behind the shipped proxy', () => {
  it('compose trusts its one proxy hop (TRUST_PROXY=1), which names the client in X-Forwarded-For', () => {
    const compose = readFileSync(new URL('../../../deploy/compose.yaml', import.meta.url), 'utf8');
    const nginx = readFileSync(new URL('../../../deploy/nginx.conf', import.meta.url), 'utf8');
    expect(compose).toMatch(/^\s+TRUST_PROXY: "1"$/m);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });

  it('with TRUST_PROXY=1 each client behind the proxy has its own budget, and a valid credential passes from a blocked one', async () => {
    const behind = await startTestGateway({ db: gateway.db, env: { AUTH_FAILURE_LIMIT: '2', TRUST_PROXY: '1' } });
    try {
      const get = (client: string, token: string) => fetch(`${behind.url}/admin/merchants`, { headers: { ...bearer(token), 'x-forwarded-for': client } }).then((r) => r.status);
      expect([await get('203.0.113.7', madeUp()), await get('203.0.113.7', madeUp()), await get('203.0.113.7', madeUp())]).toEqual([401, 401, 429]);
      expect(await get('203.0.113.7', valid)).toBe(200);
      expect(await get('203.0.113.8', madeUp())).toBe(401); // another client behind the same proxy
    } finally {
      await behind.close();
    }
  });
});
