/**
 * The console's sign-in over HTTP (admin/console-sessions.ts): an operator credential exchanged
 * for an HttpOnly, SameSite=Strict session cookie scoped to /admin; writes on the cookie need
 * `X-Console-Request: 1`; a read-only credential signs in but cannot write; sign-out and
 * revocation end the session; no session → 401 in the admin error shape, audited when a write.
 * And `/console` itself: one shell (any path under it), its bundle and stylesheet, a CSP of this origin only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from './support/checkout.js';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let full = '';
let reader = '';

const signIn = (credential: string) => call(`${gateway.url}/admin/console/session`, { method: 'POST', headers: { authorization: `Bearer ${credential}` } });
/** The cookie a sign-in set, as a browser sends it back. */
const cookieOf = (reply: Reply) => reply.headers.get('set-cookie')!.split(';')[0]!;
const withCookie = (cookie: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
  call(`${gateway.url}/admin${path}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string> | undefined) } });

function expectAdminError(reply: Reply, status: number, type: string): void {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ error: expect.objectContaining({ type, message: expect.any(String), request_id: expect.any(String) }) });
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('desk-chair', [{ price: 40, quantity: 10 }], { title: 'Desk chair' }), stocked('oak-table', [{ price: 300, quantity: 2 }], { title: 'Oak table' })]);
  const operators = gateway.services.admin.operators;
  full = (await operators.create({ name: 'root', access: 'full', allMerchants: true })).token;
  reader = (await operators.create({ name: 'auditor', access: 'read', merchantIds: ['shop'] })).token;
}, 120_000);
afterAll(() => gateway?.close());

describe('POST /admin/console/session', () => {
  it('exchanges the credential for an HttpOnly, SameSite=Strict cookie on /admin that then stands for it', async () => {
    const reply = await signIn(full);
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ operator: { id: expect.stringMatching(/^opr_/), name: 'root', access: 'full', all_merchants: true, merchant_ids: [] }, expires_at: expect.any(String) });
    const hours = (Date.parse(reply.body.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    const setCookie = reply.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^cg_console=ocs_[0-9A-Za-z]{32}; Path=\/admin; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(setCookie).not.toContain(full);
    expect(reply.headers.get('cache-control')).toBe('no-store');

    const cookie = cookieOf(reply);
    const who = await withCookie(cookie, '/console/session');
    expect(who.status).toBe(200);
    expect(who.body.operator.name).toBe('root');
    expect(who.body.expires_at).toBe(reply.body.expires_at);
    expect((await withCookie(cookie, '/merchants')).body.items.map((m: { id: string }) => m.id)).toContain('shop');
  });

  it('a wrong credential gets no session, 401 in the admin shape, and the refused sign-in is audited', async () => {
    const refused = await signIn('op_nosuch');
    expectAdminError(refused, 401, 'authentication_error');
    expect(refused.headers.get('set-cookie')).toBeNull();
    const audit = await call(`${gateway.url}/admin/audit?limit=1`, { headers: { authorization: `Bearer ${full}` } });
    expect(audit.body.items[0]).toMatchObject({ operator_id: null, operation: 'createConsoleSession', outcome: 'refused', status: 401 });
  });

  it('no session, a made-up one, or a signed-out one → 401 in the admin shape', async () => {
    expectAdminError(await call(`${gateway.url}/admin/console/session`), 401, 'authentication_error');
    expectAdminError(await withCookie(`cg_console=ocs_${'A'.repeat(32)}`, '/merchants'), 401, 'authentication_error');
    expectAdminError(await withCookie('cg_console=garbage', '/merchants'), 401, 'authentication_error');
    const cookie = cookieOf(await signIn(full));
    const out = await withCookie(cookie, '/console/session', { method: 'DELETE', headers: { 'x-console-request': '1' } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^cg_console=; Path=\/admin; HttpOnly; SameSite=Strict; Max-Age=0/);
    expectAdminError(await withCookie(cookie, '/merchants'), 401, 'authentication_error');
  });

  it('a write on the cookie without X-Console-Request is refused (a cross-site form cannot send it) and changes nothing', async () => {
    const cookie = cookieOf(await signIn(full));
    const refused = await withCookie(cookie, '/merchants', { method: 'POST', json: { id: 'forged' } });
    expectAdminError(refused, 401, 'authentication_error');
    expect(refused.body.error.message).toMatch(/X-Console-Request/i);
    const made = await withCookie(cookie, '/merchants', { method: 'POST', json: { id: 'console-made' }, headers: { 'x-console-request': '1' } });
    expect(made.status).toBe(201);
    const ids = (await withCookie(cookie, '/merchants?limit=100')).body.items.map((m: { id: string }) => m.id);
    expect(ids).toContain('console-made');
    expect(ids).not.toContain('forged');
  });

  it('a read-only credential signs in and reads, but its session cannot write (403)', async () => {
    const reply = await signIn(reader);
    expect(reply.status).toBe(201);
    expect(reply.body.operator).toMatchObject({ access: 'read', all_merchants: false, merchant_ids: ['shop'] });
    const cookie = cookieOf(reply);
    expect((await withCookie(cookie, '/merchants/shop/products')).status).toBe(200);
    expectAdminError(await withCookie(cookie, '/merchants/shop/webhook_endpoints', { method: 'POST', json: { url: 'https://example.com/h' }, headers: { 'x-console-request': '1' } }), 403, 'authorization_error');
    expectAdminError(await withCookie(cookie, '/merchants/rival/products'), 403, 'authorization_error');
  });

  it('revoking the credential ends its sessions at their next request', async () => {
    const { operator, token } = await gateway.services.admin.operators.create({ name: 'temp', access: 'full', allMerchants: true });
    const cookie = cookieOf(await signIn(token));
    expect((await withCookie(cookie, '/console/session')).status).toBe(200);
    await gateway.services.admin.operators.revoke(operator.id);
    const refused = await withCookie(cookie, '/console/session');
    expectAdminError(refused, 401, 'authentication_error');
    expect(refused.body.error.message).toMatch(/revoked/);
  });
});

describe('GET /admin/merchants/{merchant_id}/products', () => {
  it('with q: ranked items with scores and what the query was understood as; without: pages by title', async () => {
    const auth = { headers: { authorization: `Bearer ${full}` } };
    const searched = await call(`${gateway.url}/admin/merchants/shop/products?q=${encodeURIComponent('chair under $100')}`, auth);
    expect(searched.status).toBe(200);
    expect(searched.body.query_understanding).toMatchObject({ text: 'chair', max_price: 100 });
    expect(searched.body.items.map((p: { id: string }) => p.id)).toEqual(['desk-chair']);
    expect(searched.body.items[0].similarity_score).toBeGreaterThan(0);
    const listed = await call(`${gateway.url}/admin/merchants/shop/products?page_size=1&page=2`, auth);
    expect(listed.body).toMatchObject({ page: 2, page_size: 1, total: 2 });
    expect(listed.body.items.map((p: { title: string }) => p.title)).toHaveLength(1);
    expect(listed.body.query_understanding).toBeUndefined();
    expectAdminError(await call(`${gateway.url}/admin/merchants/shop/products?page_size=500`, auth), 400, 'invalid_request');
  });
});

describe('GET /console', () => {
  it('answers the shell at /console and under it, with its assets, a CSP of this origin only, and no data', async () => {
    for (const path of ['/console', '/console/', '/console/m/shop/orders/ord_x']) {
      const page = await fetch(`${gateway.url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|https?:/);
      const html = await page.text();
      const script = /src="(\/console\/assets\/console\.js\?v=[0-9a-f]+)"/.exec(html)?.[1];
      const style = /href="(\/console\/assets\/console\.css\?v=[0-9a-f]+)"/.exec(html)?.[1];
      expect(script && style).toBeTruthy();
      const js = await fetch(`${gateway.url}${script}`);
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toMatch(/javascript/);
      expect((await js.text()).length).toBeGreaterThan(10_000);
      expect((await fetch(`${gateway.url}${style}`)).headers.get('content-type')).toMatch(/^text\/css/);
    }
    expect((await fetch(`${gateway.url}/console/assets/nosuch.js`)).status).toBe(404);
  });
});
