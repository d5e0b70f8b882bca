/**
 * A key's request signature scheme through the admin API (createApiKey's signature_scheme,
 * setApiKeySignatureScheme), and what the merchant API then takes from the key, over real HTTP.
 */
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../src/auth/request-signature.js';
import { product } from './support/fixtures.js';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let token: string;
let shopOnly: string;
const target = '/acp/products/a-1';

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop-a', [product({ id: 'a-1' })]);
  await gateway.importProducts('shop-b', [product({ id: 'b-1' })]);
  const operators = gateway.services.admin.operators;
  token = (await operators.create({ name: 'signing', access: 'full', allMerchants: true })).token;
  shopOnly = (await operators.create({ name: 'shop-b only', access: 'full', merchantIds: ['shop-b'] })).token;
});
afterAll(() => gateway?.close());

const admin = (path: string, json: unknown, bearer = token) => call(`${gateway.url}/admin${path}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` }, json });

function v2(secret: string, method: string, path: string, t = Math.floor(Date.now() / 1000)): string {
  const empty = createHash('sha256').update('').digest('hex');
  return `t=${t},v2=${createHmac('sha256', secret).update(`v2\n${t}\n${method}\n${path}\n\n${empty}`).digest('hex')}`;
}

const withSpec = (key: string, secret: string) => call(`${gateway.url}${target}`, { headers: { 'X-ACP-API-Key': key, Signature: signBody(Buffer.alloc(0), secret), Timestamp: new Date().toISOString() } });
const withV2 = (key: string, secret: string) => call(`${gateway.url}${target}`, { headers: { 'X-ACP-API-Key': key, 'X-Request-Signature': v2(secret, 'GET', target) } });

function expectAdminError(reply: Reply, status: number, type: string): void {
  expect(reply.status).toBe(status);
  expect(reply.body.error).toMatchObject({ type, message: expect.any(String) });
}

describe('createApiKey', () => {
  it('creates a key that requires v2, and lists its scheme', async () => {
    const created = await admin('/merchants/shop-a/keys', { signature_scheme: 'v2' });
    expect(created.status).toBe(201);
    expect(created.body.api_key).toMatchObject({ signing: true, signature_scheme: 'v2' });
    const { secret: key, signing_secret: secret } = created.body as { secret: string; signing_secret: string };
    expectAdminError(await withSpec(key, secret), 401, 'authentication_error');
    expect((await withSpec(key, secret)).body.error.message).toMatch(/requires the v2/);
    expect((await withV2(key, secret)).status).toBe(200);

    expect((await admin('/merchants/shop-a/keys', { signing_secret: true })).body.api_key).toMatchObject({ signing: true, signature_scheme: 'body' });
    expect((await admin('/merchants/shop-a/keys', {})).body.api_key).toMatchObject({ signing: false, signature_scheme: null });
  });

  it.each([
    ['v2 without a signing secret', { signature_scheme: 'v2', signing_secret: false }],
    ['an unknown scheme', { signature_scheme: 'v3' }],
  ])('refuses %s with 400 invalid_request', async (_name, json) => {
    expectAdminError(await admin('/merchants/shop-a/keys', json), 400, 'invalid_request');
  });
});

describe('setApiKeySignatureScheme', () => {
  it('moves a key to v2 (SPEC refused from the next request) and back', async () => {
    const created = await admin('/merchants/shop-a/keys', { signing_secret: true });
    const { api_key: record, secret: key, signing_secret: secret } = created.body as { api_key: { id: string }; secret: string; signing_secret: string };
    expect((await withSpec(key, secret)).status).toBe(200);

    const strict = await admin(`/keys/${record.id}/signature-scheme`, { signature_scheme: 'v2' });
    expect(strict.status).toBe(200);
    expect(strict.body).toMatchObject({ id: record.id, signing: true, signature_scheme: 'v2' });
    expectAdminError(await withSpec(key, secret), 401, 'authentication_error');
    expect((await withV2(key, secret)).status).toBe(200);

    expect((await admin(`/keys/${record.id}/signature-scheme`, { signature_scheme: 'body' })).body.signature_scheme).toBe('body');
    expect((await withSpec(key, secret)).status).toBe(200);
  });

  it('refuses a key without a signing secret, a bad body, an unknown key, and a key of a merchant out of scope', async () => {
    const plain = (await admin('/merchants/shop-a/keys', {})).body.api_key.id as string;
    const reply = await admin(`/keys/${plain}/signature-scheme`, { signature_scheme: 'v2' });
    expectAdminError(reply, 400, 'invalid_request');
    expect(reply.body.error.message).toMatch(/no signing secret/);
    const signing = (await admin('/merchants/shop-a/keys', { signing_secret: true })).body.api_key.id as string;
    expectAdminError(await admin(`/keys/${signing}/signature-scheme`, { signature_scheme: 'v3' }), 400, 'invalid_request');
    expectAdminError(await admin(`/keys/${signing}/signature-scheme`, {}), 400, 'invalid_request');
    expectAdminError(await admin('/keys/key_doesnotexist/signature-scheme', { signature_scheme: 'v2' }), 404, 'not_found');
    expectAdminError(await admin(`/keys/${signing}/signature-scheme`, { signature_scheme: 'v2' }, shopOnly), 404, 'not_found');
    const listed = await call(`${gateway.url}/admin/merchants/shop-a/keys?limit=100`, { headers: { authorization: `Bearer ${token}` } });
    expect(listed.body.items.find((k: { id: string }) => k.id === signing).signature_scheme).toBe('body'); // unchanged
  });
});
