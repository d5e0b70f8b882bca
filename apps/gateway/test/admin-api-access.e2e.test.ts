/**
 * The admin API end to end (test/support/admin-api.ts: a real gateway over HTTP on a real
 * database, operator credentials made by the service `gateway operators create` runs): who may
 * call it — no, malformed, unknown, revoked credentials and merchant API keys refused, an operator
 * credential refused on the merchant API — merchants and API keys (the revoked key then fails on
 * the merchant API), read-only vs full credentials and per-merchant scoping, refusals in the admin
 * error shape with each refused write audited, the audit log read page by page and never changed,
 * and the admin contract in /docs. Webhook endpoints, deliveries and orders: admin-api-webhooks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAdminError, useAdminApi } from './support/admin-api.js';
import { call } from './support/http.js';
import type { TestGateway } from './support/test-gateway.js';

const bench = useAdminApi();
const { op, admin, post, latestAudit } = bench;
let gateway: TestGateway;
beforeAll(() => void ({ gateway } = bench));

describe('operator credentials', () => {
  it('refuses no credential, a malformed or unknown one, and a merchant API key with 401 in the admin error shape', async () => {
    expectAdminError(await call(`${gateway.url}/admin/merchants`), 401, 'authentication_error');
    expectAdminError(await admin('op_nosuch', '/merchants'), 401, 'authentication_error');
    expectAdminError(await admin(`op_${'x'.repeat(32)}`, '/merchants'), 401, 'authentication_error');
    const merchantKey = await gateway.createKey({ merchantIds: ['shop'] });
    const withKey = await admin(merchantKey, '/merchants');
    expectAdminError(withKey, 401, 'authentication_error');
    expect(withKey.body.error.message).toMatch(/merchant API key is not an operator credential/);
    expectAdminError(await call(`${gateway.url}/admin/merchants`, { headers: { 'X-ACP-API-Key': merchantKey } }), 401, 'authentication_error');
  });

  it('an operator credential is refused on the merchant API', async () => {
    const reply = await call(`${gateway.url}/orders`, { headers: { authorization: `Bearer ${op.root}` } });
    expect(reply.status).toBe(401);
    expect(reply.body.error.type).toBe('authentication_error');
  });

  it('a revoked credential is refused at its next request; answers carry the rate-limit headers', async () => {
    const { operator, token } = await gateway.services.admin.operators.create({ name: 'temp', access: 'read', allMerchants: true });
    const ok = await admin(token, '/merchants');
    expect(ok.status).toBe(200);
    expect(Number(ok.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(ok.headers.get('x-ratelimit-remaining')).not.toBeNull();
    await gateway.services.admin.operators.revoke(operator.id);
    const refused = await admin(token, '/merchants');
    expectAdminError(refused, 401, 'authentication_error');
    expect(refused.body.error.message).toMatch(/revoked/);
  });

  it('a write with a bad credential is refused and audited without an operator', async () => {
    const refused = await post('op_nosuch', '/merchants', { id: 'sneaky' });
    expectAdminError(refused, 401, 'authentication_error');
    const [entry] = await latestAudit(1);
    expect(entry).toMatchObject({ operator_id: null, operation: 'createMerchant', method: 'POST', path: '/admin/merchants', outcome: 'refused', status: 401, request_id: refused.body.error.request_id });
    expect(entry!.detail).toMatch(/^authentication_error: /);
    expect((await admin(op.root, '/merchants?limit=100')).body.items.map((m: { id: string }) => m.id)).not.toContain('sneaky');
  });
});

describe('merchants', () => {
  it('lists the merchants a credential serves, newest first, by cursor', async () => {
    const all = await admin(op.root, '/merchants');
    expect(all.status).toBe(200);
    expect(all.body.items.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(['shop', 'rival']));
    const scoped = await admin(op.shopOnly, '/merchants');
    expect(scoped.body).toEqual({ items: [{ id: 'shop', name: 'shop', created_at: expect.any(String), stripe_account_id: null }], has_more: false, next_cursor: null });
    const first = await admin(op.root, '/merchants?limit=1');
    expect(first.body).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const second = await admin(op.root, `/merchants?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expectAdminError(await admin(op.root, '/merchants?cursor=bogus'), 400, 'invalid_request');
    expectAdminError(await admin(op.root, '/merchants?limit=0'), 400, 'invalid_request');
  });

  it('creates a merchant with a full all-merchants credential; a taken id is 409; read-only, per-merchant and malformed are refused and audited', async () => {
    const created = await post(op.root, '/merchants', { id: 'newco', name: 'New Co' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 'newco', name: 'New Co', created_at: expect.any(String), stripe_account_id: null });
    expectAdminError(await post(op.root, '/merchants', { id: 'newco' }), 409, 'conflict');
    expectAdminError(await post(op.reader, '/merchants', { id: 'readco' }), 403, 'authorization_error');
    expectAdminError(await post(op.shopOnly, '/merchants', { id: 'shopco' }), 403, 'authorization_error');
    const malformed = await post(op.root, '/merchants', { id: 'bad id!' });
    expectAdminError(malformed, 400, 'invalid_request');
    expect(malformed.body.error.param).toMatch(/id/);
    expectAdminError(await admin(op.root, '/merchants', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":' }), 400, 'invalid_request');
    const ids = (await admin(op.root, '/merchants?limit=100')).body.items.map((m: { id: string }) => m.id);
    expect(ids).not.toEqual(expect.arrayContaining(['readco']));
    expect(ids).not.toContain('shopco');
    const entries = await latestAudit(6);
    expect(entries.map((e) => [e.operation, e.outcome, e.status, e.target])).toEqual([
      ['createMerchant', 'refused', 400, null],
      ['createMerchant', 'refused', 400, 'bad id!'],
      ['createMerchant', 'refused', 403, 'shopco'],
      ['createMerchant', 'refused', 403, null],
      ['createMerchant', 'refused', 409, 'newco'],
      ['createMerchant', 'succeeded', 201, 'newco'],
    ]);
  });
});

describe('API keys', () => {
  it('creates a key (the secret shown once), lists it without the secret, revokes it — and the revoked key then fails on the merchant API', async () => {
    const created = await post(op.shopOnly, '/merchants/shop/keys', { scopes: ['orders:read'] });
    expect(created.status).toBe(201);
    const { api_key: key, secret } = created.body;
    expect(secret).toMatch(/^sk_dev_[0-9A-Za-z]{32}$/);
    expect(key).toMatchObject({ merchant_ids: ['shop'], scopes: ['orders:read'], display: `sk_dev_…${secret.slice(-4)}`, revoked_at: null });
    expect((await call(`${gateway.url}/orders`, { headers: { 'X-ACP-API-Key': secret } })).status).toBe(200);

    const listed = await admin(op.reader, '/merchants/shop/keys');
    expect(listed.status).toBe(200);
    expect(listed.body.items[0]).toEqual(key); // newest first
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const revoked = await post(op.shopOnly, `/keys/${key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const after = await call(`${gateway.url}/orders`, { headers: { 'X-ACP-API-Key': secret } });
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/revoked/);
    expect((await latestAudit(1))[0]).toMatchObject({ operation: 'revokeApiKey', operator_id: op.shopOnlyId, target: key.id, merchant_id: 'shop', outcome: 'succeeded' });
  });

  it('refuses a key for a merchant that does not exist (none is created), for a merchant out of scope, and a revoke of another merchant\'s key', async () => {
    expectAdminError(await post(op.root, '/merchants/ghost/keys', {}), 404, 'not_found');
    expect((await admin(op.root, '/merchants?limit=100')).body.items.map((m: { id: string }) => m.id)).not.toContain('ghost');
    expectAdminError(await post(op.shopOnly, '/merchants/rival/keys', {}), 403, 'authorization_error');
    expectAdminError(await admin(op.shopOnly, '/merchants/rival/keys'), 403, 'authorization_error');
    const rivalKey = (await post(op.root, '/merchants/rival/keys', {})).body.api_key;
    expectAdminError(await post(op.shopOnly, `/keys/${rivalKey.id}/revoke`), 404, 'not_found');
    expect((await admin(op.root, '/merchants/rival/keys')).body.items.find((k: { id: string }) => k.id === rivalKey.id).revoked_at).toBeNull();
    expectAdminError(await post(op.root, '/merchants/shop/keys', { scopes: ['everything'] }), 400, 'invalid_request');
    const entries = await latestAudit(3);
    expect(entries.map((e) => [e.operation, e.operator_id, e.outcome, e.status])).toEqual([
      ['createApiKey', expect.any(String), 'refused', 400],
      ['revokeApiKey', op.shopOnlyId, 'refused', 404],
      ['createApiKey', expect.any(String), 'succeeded', 201],
    ]);
  });
});

describe('audit log', () => {
  it('is read newest first, one page at a time', async () => {
    const first = await admin(op.reader, '/audit?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const second = await admin(op.reader, `/audit?limit=2&cursor=${first.body.next_cursor}`);
    const times = [...first.body.items, ...second.body.items].map((e: { created_at: string }) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set([...first.body.items, ...second.body.items].map((e: { id: string }) => e.id)).size).toBe(4);
  });

  it('reads are not audited; the log cannot be changed', async () => {
    const before = (await latestAudit(1))[0];
    await admin(op.root, '/merchants');
    expect((await latestAudit(1))[0]).toEqual(before);
    const count = await gateway.db.prisma.adminAuditEntry.count();
    expect((await gateway.db.prisma.adminAuditEntry.deleteMany({})).count).toBe(0);
    expect((await gateway.db.prisma.adminAuditEntry.updateMany({ data: { outcome: 'succeeded' } })).count).toBe(0);
    expect(await gateway.db.prisma.adminAuditEntry.count()).toBe(count);
    expect((await latestAudit(1))[0]).toEqual(before);
  });
});

describe('documentation', () => {
  it('serves the admin contract at /docs/admin/openapi.json and lists it in /docs as a fourth document', async () => {
    const document = await call(`${gateway.url}/docs/admin/openapi.json`);
    expect(document.status).toBe(200);
    expect(document.body.info.title).toBe('Commerce Gateway admin API');
    expect(Object.keys(document.body.paths)).toEqual(expect.arrayContaining(['/admin/merchants', '/admin/deliveries/{delivery_id}/resend', '/admin/audit']));
    const init = await fetch(`${gateway.url}/docs/init.js`).then((r) => r.text());
    expect(init).toContain("url: '/docs/admin/openapi.json'");
  });

  it('an unknown admin path is 404 and a wrong method 405, in the admin error shape', async () => {
    expectAdminError(await admin(op.root, '/nosuch'), 404, 'not_found');
    expectAdminError(await admin(op.root, '/merchants', { method: 'DELETE' }), 405, 'method_not_allowed');
  });
});
