/**
 * A key's name (what it is for), set when it is created — through the admin API or `keys create
 * --name` — and shown wherever the key is listed, on the real database. Keys made before names, or
 * without one, are listed with `name: null`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let operator = '';

const admin = (path: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply> => call(`${gateway.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${operator}` } });

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.createKey({ merchantIds: ['shop'] }); // unnamed, as every key made before names
  operator = (await gateway.services.admin.operators.create({ name: 'ops', access: 'full', merchantIds: ['shop'] })).token;
}, 120_000);
afterAll(() => gateway?.close());

describe('key names', () => {
  it('names a key created through the admin API, lists it by name beside the unnamed one, and audits the creation', async () => {
    const created = await admin('/merchants/shop/keys', { method: 'POST', json: { name: 'Storefront', tier: 'production' } });
    expect(created.status).toBe(201);
    expect(created.body.api_key).toMatchObject({ name: 'Storefront', tier: 'production', rpm: null, rpd: null });
    const listed = await admin('/merchants/shop/keys');
    expect(listed.body.items.map((k: { name: string | null }) => k.name)).toEqual(['Storefront', null]);
    const [entry] = (await admin('/audit?limit=1')).body.items;
    expect(entry).toMatchObject({ operation: 'createApiKey', target: created.body.api_key.id, outcome: 'succeeded' });
  });

  it('refuses an empty or overlong name (400 naming it), nothing created', async () => {
    for (const name of ['', 'x'.repeat(101)]) {
      const refused = await admin('/merchants/shop/keys', { method: 'POST', json: { name } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.param).toMatch(/name/);
    }
    expect((await admin('/merchants/shop/keys')).body.items).toHaveLength(2);
  });

  it('keeps the name in the key service (what `keys create --name` calls), trimmed', async () => {
    const { id } = await gateway.services.keys.create({ merchantIds: ['shop'], env: 'development', scopes: ['*'], name: '  ChatGPT agent ' });
    expect((await gateway.services.keys.list()).find((k) => k.id === id)?.name).toBe('ChatGPT agent');
  });
});
