/**
 * The admin API answers no cross-origin request with credentials. Its console is same-origin, so
 * `/admin` sends no CORS header at all — a preflight from another origin is not granted, an answer
 * is not readable — unless ADMIN_CORS_ORIGINS lists the origin (http/middleware/cors-policy.ts); the
 * merchant API's CORS (ALLOWED_ORIGINS) is unchanged. And a write on the console's session cookie
 * must come from this gateway's own pages (admin/same-origin.ts): another Origin, or a
 * `Sec-Fetch-Site` of `cross-site` / `same-site`, is refused 403 before anything is done, and audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const EVIL = 'https://evil.example';
const OPS = 'https://ops.shop.example';
let gateway: TestGateway;
let listing: TestGateway;
let full = '';

const corsHeaders = (reply: Reply) => [...reply.headers.keys()].filter((name) => name.startsWith('access-control-'));
const preflight = (on: TestGateway, origin: string, path = '/admin/merchants') =>
  call(`${on.url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-console-request' } });
const cookieOf = async (on: TestGateway) =>
  (await call(`${on.url}/admin/console/session`, { method: 'POST', headers: { authorization: `Bearer ${full}` } })).headers.get('set-cookie')!.split(';')[0]!;
const cookieWrite = (on: TestGateway, cookie: string, id: string, headers: Record<string, string>) =>
  call(`${on.url}/admin/merchants`, { method: 'POST', json: { id }, headers: { cookie, 'x-console-request': '1', ...headers } });
const merchantIds = async (on: TestGateway): Promise<string[]> =>
  (await call(`${on.url}/admin/merchants?limit=100`, { headers: { authorization: `Bearer ${full}` } })).body.items.map((m: { id: string }) => m.id);

beforeAll(async () => {
  gateway = await startTestGateway();
  listing = await startTestGateway({ db: gateway.db, env: { ADMIN_CORS_ORIGINS: `${OPS}, http://localhost:5173` } });
  full = (await gateway.services.admin.operators.create({ name: 'root', access: 'full', allMerchants: true })).token;
}, 120_000);
afterAll(async () => {
  await listing?.close();
  await gateway?.close();
});

describe('CORS on /admin', () => {
  it('grants no preflight from another origin: no Access-Control-* header at all', async () => {
    const reply = await preflight(gateway, EVIL);
    expect(reply.status).not.toBe(204);
    expect(corsHeaders(reply)).toEqual([]);
  });

  it('sends no CORS header on an answer to another origin, credential or not', async () => {
    const reply = await call(`${gateway.url}/admin/merchants`, { headers: { origin: EVIL, authorization: `Bearer ${full}` } });
    expect(reply.status).toBe(200);
    expect(corsHeaders(reply)).toEqual([]);
    expect(corsHeaders(await call(`${gateway.url}/admin/merchants`, { headers: { origin: EVIL } }))).toEqual([]);
  });

  it('leaves the merchant API as ALLOWED_ORIGINS says (unset: every origin)', async () => {
    const reply = await preflight(gateway, EVIL, '/acp/products');
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe(EVIL);
  });

  it('with ADMIN_CORS_ORIGINS, grants exactly the listed origins, with credentials', async () => {
    const granted = await preflight(listing, OPS);
    expect(granted.status).toBe(204);
    expect(granted.headers.get('access-control-allow-origin')).toBe(OPS);
    expect(granted.headers.get('access-control-allow-credentials')).toBe('true');
    expect(granted.headers.get('access-control-allow-headers')).toBe('content-type,x-console-request');
    const answer = await call(`${listing.url}/admin/merchants`, { headers: { origin: OPS, authorization: `Bearer ${full}` } });
    expect(answer.headers.get('access-control-allow-origin')).toBe(OPS);
    const refused = await preflight(listing, EVIL);
    expect(corsHeaders(refused)).toEqual([]);
    expect(refused.headers.get('vary')).toMatch(/Origin/);
  });

  it('refuses a bad ADMIN_CORS_ORIGINS at start-up in one line, and * above all', () => {
    expect(() => loadConfig({ ADMIN_CORS_ORIGINS: '*' })).toThrow(/^ADMIN_CORS_ORIGINS cannot be \*/);
    expect(() => loadConfig({ ADMIN_CORS_ORIGINS: 'ops.shop.example' })).toThrow(/^ADMIN_CORS_ORIGINS has "ops.shop.example", which is not an origin/);
    expect(() => loadConfig({ ADMIN_CORS_ORIGINS: 'https://ops.shop.example/console' })).toThrow(/not an origin/);
    expect(loadConfig({}).adminCorsOrigins).toBeUndefined();
  });
});

describe('a write on the console cookie from another origin (CSRF)', () => {
  it.each([
    ['Origin of another site', { origin: EVIL }],
    ['Sec-Fetch-Site: cross-site', { origin: EVIL, 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling sub-domain)', { origin: 'https://blog.127.0.0.1.example', 'sec-fetch-site': 'same-site' }],
    ['Origin null (a sandboxed frame)', { origin: 'null' }],
  ])('is refused 403 and does nothing: %s', async (_name, headers) => {
    const cookie = await cookieOf(gateway);
    const refused = await cookieWrite(gateway, cookie, 'forged-merchant', headers);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ type: 'authorization_error', message: expect.stringMatching(/cross-origin/) });
    expect(corsHeaders(refused)).toEqual([]);
    expect(await merchantIds(gateway)).not.toContain('forged-merchant');
    await gateway.services.admin.audit.settled();
    const audit = await call(`${gateway.url}/admin/audit?limit=1`, { headers: { authorization: `Bearer ${full}` } });
    expect(audit.body.items[0]).toMatchObject({ operation: 'createMerchant', outcome: 'refused', status: 403, request_id: refused.body.error.request_id });
  });

  it('a sign-out on the cookie from another origin is refused 403 too, and the session lives on', async () => {
    const cookie = await cookieOf(gateway);
    const refused = await call(`${gateway.url}/admin/console/session`, { method: 'DELETE', headers: { cookie, 'x-console-request': '1', origin: EVIL } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.type).toBe('authorization_error');
    expect((await call(`${gateway.url}/admin/console/session`, { headers: { cookie } })).status).toBe(200);
  });

  it('is served from the gateway’s own origin, a same-origin fetch, or a client that is not a browser', async () => {
    const cookie = await cookieOf(gateway);
    expect((await cookieWrite(gateway, cookie, 'own-origin', { origin: gateway.url })).status).toBe(201);
    expect((await cookieWrite(gateway, cookie, 'same-origin-fetch', { origin: gateway.url, 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    expect((await cookieWrite(gateway, cookie, 'no-browser', {})).status).toBe(201);
  });

  it('is served from an origin ADMIN_CORS_ORIGINS lists', async () => {
    const cookie = await cookieOf(listing);
    expect((await cookieWrite(listing, cookie, 'from-ops', { origin: OPS, 'sec-fetch-site': 'same-site' })).status).toBe(201);
    expect((await cookieWrite(listing, cookie, 'from-evil', { origin: EVIL, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('a bearer credential is not a cookie: a script may send it from anywhere', async () => {
    const reply = await call(`${gateway.url}/admin/merchants`, { method: 'POST', json: { id: 'scripted' }, headers: { authorization: `Bearer ${full}`, origin: EVIL } });
    expect(reply.status).toBe(201);
  });
});
