/**
 * Audit entries are complete and reveal nothing (admin/audit-trail.ts, audit-log.ts,
 * storable-entry.ts). Every refused write has its entry — also when the request carried text
 * PostgreSQL cannot hold (a NUL in the path, an id or the body: written as a visible `\u0000`), and
 * when the database refused the entry for a moment (tried again); and an entry never names a
 * merchant its operator does not serve, even when the refused target belongs to one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
const op = { root: '', scoped: '' };
const rival = { endpoint: '', key: '' };

const admin = (token: string | undefined, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply> =>
  call(`${gateway.url}/admin${path}`, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string> | undefined) } });

/** The entry of a request, by its request id, as the operator who may see every entry reads it. */
async function entryOf(reply: Reply): Promise<Record<string, unknown> | undefined> {
  await gateway.services.admin.audit.settled();
  const requestId = reply.headers.get('request-id');
  const items = (await admin(op.root, '/audit?limit=100')).body.items as Record<string, unknown>[];
  return items.find((entry) => entry.request_id === requestId);
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.services.merchants.create('shop', 'Shop');
  await gateway.services.merchants.create('rival-co', 'Rival');
  const operators = gateway.services.admin.operators;
  op.root = (await operators.create({ name: 'root', access: 'full', allMerchants: true })).token;
  op.scoped = (await operators.create({ name: 'shop-ops', access: 'full', merchantIds: ['shop'] })).token;
  rival.endpoint = (await gateway.services.admin.webhookEndpoints.add('rival-co', 'https://hooks.rival.example/in', 'gateway')).id;
  await gateway.createKey({ merchantIds: ['rival-co'] });
  rival.key = (await gateway.services.keys.list()).find((k) => k.merchantIds.includes('rival-co'))!.id;
}, 120_000);
afterAll(() => gateway?.close());

describe('a refused write carrying text the database cannot hold', () => {
  // Where the text is refused (the path's check, validation, the handler) may move; the entry must be there wherever it is.
  it.each([
    ['a NUL in the merchant of the path', 'root', '/merchants/%00/webhook_endpoints', { url: 'https://hooks.example/in' }, undefined],
    ['the same without a credential', undefined, '/merchants/%00/webhook_endpoints', { url: 'https://hooks.example/in' }, undefined],
    ['a NUL in the key of the path', 'root', '/keys/%00/revoke', undefined, undefined],
    ['a NUL in the endpoint of the path', 'root', '/webhook_endpoints/a%00b/disable', undefined, undefined],
    ['a NUL in the id of the body', 'root', '/merchants', { id: 'a\u0000b' }, 'a\\u0000b'],
    ['an unpaired surrogate in the id of the body', 'root', '/merchants', { id: 'x\uD800' }, 'x\\uD800'],
  ] as const)('is audited: %s', async (_name, who, path, json, target) => {
    const reply = await admin(who && op[who], path, { method: 'POST', ...(json ? { json } : {}) });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    const entry = await entryOf(reply);
    expect(entry).toMatchObject({ status: reply.status, method: 'POST', outcome: reply.status >= 500 ? 'failed' : 'refused' });
    if (target) expect(entry!.target).toBe(target); // the escape, as text
  });
});

describe('an entry the database refuses for a moment', () => {
  it('is written once it can be, and the answer did not wait for it', async () => {
    const appends = vi.spyOn(gateway.services.admin.audit.store, 'append');
    await gateway.db.prisma.$executeRawUnsafe('ALTER TABLE admin_audit_log RENAME TO admin_audit_log_away');
    let reply: Reply;
    try {
      reply = await admin(op.root, '/merchants', { method: 'POST', json: { id: 'shop' } });
      expect(reply.status).toBe(409);
      // A few attempts at the entry fail (the first and two retries), counted as they are refused.
      const requestId = reply.headers.get('request-id');
      const refused = () => appends.mock.settledResults.filter((result, i) => result.type === 'rejected' && appends.mock.calls[i]![0].requestId === requestId).length;
      await vi.waitFor(() => expect(refused()).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    } finally {
      await gateway.db.prisma.$executeRawUnsafe('ALTER TABLE admin_audit_log_away RENAME TO admin_audit_log');
      appends.mockRestore();
    }
    expect(await entryOf(reply)).toMatchObject({ operation: 'createMerchant', outcome: 'refused', status: 409, target: 'shop' });
  }, 30_000);
});

describe("a refused write on another merchant's resource", () => {
  it.each([
    ['disable its webhook endpoint', () => `/webhook_endpoints/${rival.endpoint}/disable`, 'POST'],
    ['remove its webhook endpoint', () => `/webhook_endpoints/${rival.endpoint}`, 'DELETE'],
    ['rotate its endpoint secret', () => `/webhook_endpoints/${rival.endpoint}/rotate_secret`, 'POST'],
    ['revoke its API key', () => `/keys/${rival.key}/revoke`, 'POST'],
  ])('is refused as not found, and its entry does not name that merchant: %s', async (_name, path, method) => {
    const reply = await admin(op.scoped, path(), { method });
    expect(reply.status).toBe(404);
    expect(JSON.stringify(reply.body)).not.toContain('rival-co');
    const entry = await entryOf(reply);
    expect(entry).toMatchObject({ outcome: 'refused', status: 404, merchant_id: null });
    expect(JSON.stringify(entry)).not.toContain('rival-co');
  });

  it("leaves that merchant out of everything the operator's audit listing shows", async () => {
    const mine = await admin(op.scoped, '/audit?limit=100');
    expect(mine.status).toBe(200);
    expect(mine.body.items.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(mine.body)).not.toContain('rival-co');
  });

  it('still names the merchant of an entry its operator serves', async () => {
    const reply = await admin(op.root, `/webhook_endpoints/${rival.endpoint}/disable`, { method: 'POST' });
    expect(reply.status).toBe(200);
    expect(await entryOf(reply)).toMatchObject({ outcome: 'succeeded', merchant_id: 'rival-co', target: rival.endpoint });
  });
});
