/** Keys, credentials, scopes, merchants and request signing, through real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { CommerceGateway } from '@commerce-gateway/sdk';
import { signBody } from '../src/auth/request-signature.js';
import { generateApiKey } from '../src/auth/api-key.js';
import { product } from './support/fixtures.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let keyA: string;
const productUrl = (id = 'a-1') => `${gateway.url}/acp/products/${id}`;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop-a', [product({ id: 'a-1' })]);
  await gateway.importProducts('shop-b', [product({ id: 'b-1' })]);
  keyA = await gateway.createKey({ merchantIds: ['shop-a'] });
});
afterAll(() => gateway?.close());

const authError = (type: string) => ({ error: { type, message: expect.any(String) } });

describe('credentials', () => {
  it.each([
    ['X-ACP-API-Key', (key: string) => ({ 'X-ACP-API-Key': key })],
    ['Authorization: Bearer', (key: string) => ({ Authorization: `Bearer ${key}` })],
    ['Authorization: Basic with the key as user name', (key: string) => ({ Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` })],
  ])('accepts %s', async (_name, headers) => {
    const reply = await call(productUrl(), { headers: headers(keyA) });
    expect(reply.status).toBe(200);
    expect(reply.body.id).toBe('a-1');
  });

  it.each([
    ['no credentials', {}],
    ['a malformed key', { 'X-ACP-API-Key': 'sk_dev_short' }],
    ['an unknown key', { 'X-ACP-API-Key': generateApiKey('development') }],
    ['a key of another environment', { 'X-ACP-API-Key': generateApiKey('production') }],
    ['an unsupported scheme', { Authorization: 'Digest abc' }],
    ['Basic without a colon', { Authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` }],
    ['an empty Bearer', { Authorization: 'Bearer' }],
  ])('refuses %s with 401 authentication_error', async (_name, headers) => {
    const reply = await call(productUrl(), { headers });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(authError('authentication_error'));
  });

  it('refuses Basic credentials with a password: the key is the user name, the password empty', async () => {
    const reply = await call(productUrl(), { headers: { Authorization: `Basic ${Buffer.from(`${keyA}:secret`).toString('base64')}` } });
    expect(reply.status).toBe(401);
    expect(reply.body.error.message).toMatch(/empty password/);
  });

  it('refuses two different keys in one request', async () => {
    const other = await gateway.createKey({ merchantIds: ['shop-a'] });
    const reply = await call(productUrl(), { headers: { 'X-ACP-API-Key': keyA, Authorization: `Bearer ${other}` } });
    expect(reply.status).toBe(401);
  });

  it('refuses a revoked key on the very next request', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop-a'] });
    expect((await call(productUrl(), { headers: { 'X-ACP-API-Key': key } })).status).toBe(200);
    expect(await gateway.services.keys.revoke(key)).toBe(true);
    const reply = await call(productUrl(), { headers: { 'X-ACP-API-Key': key } });
    expect(reply.status).toBe(401);
    expect(reply.body.error.message).toMatch(/revoked/);
  });

  it('refuses Basic when it is switched off', async () => {
    const strict = await startTestGateway({ env: { BASIC_AUTH: 'false' }, db: gateway.db });
    try {
      const reply = await call(`${strict.url}/acp/products/a-1`, { headers: { Authorization: `Basic ${Buffer.from(`${keyA}:`).toString('base64')}` } });
      expect(reply.status).toBe(401);
      expect(reply.body.error.message).toMatch(/Basic authentication is disabled/);
    } finally {
      await strict.close();
    }
  });

  it('never echoes the key in an error', async () => {
    const key = generateApiKey('development');
    const reply = await call(productUrl(), { headers: { 'X-ACP-API-Key': key } });
    expect(JSON.stringify(reply.body)).not.toContain(key);
  });
});

describe('scopes and merchants', () => {
  it('counts refusals for scope or merchant against the key’s rate limit, with the X-RateLimit headers', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop-a'], scopes: ['checkout:read'], tier: 'sandbox' });
    const refused = await call(productUrl(), { headers: { 'X-ACP-API-Key': key } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('59');
    const wrongMerchant = await call(productUrl(), { headers: { 'X-ACP-API-Key': key, 'Merchant-Id': 'shop-b' } });
    expect(wrongMerchant.status).toBe(403);
    expect(wrongMerchant.headers.get('x-ratelimit-remaining')).toBe('58');
  });

  it('refuses a key without the operation scope with 403 authorization_error', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop-a'], scopes: ['checkout:read', 'webhooks:write'] });
    const reply = await call(productUrl(), { headers: { 'X-ACP-API-Key': key } });
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual(authError('authorization_error'));
  });

  it("never shows merchant A's product to a key of merchant B", async () => {
    const keyB = await gateway.createKey({ merchantIds: ['shop-b'] });
    expect((await call(productUrl('a-1'), { headers: { 'X-ACP-API-Key': keyB } })).status).toBe(404);
    const list = await call(`${gateway.url}/acp/products`, { headers: { 'X-ACP-API-Key': keyB } });
    expect(list.body.items.map((p: { id: string }) => p.id)).toEqual(['b-1']);
  });

  it('makes a key of several merchants name one in Merchant-Id', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop-a', 'shop-b'] });
    const without = await call(productUrl('b-1'), { headers: { 'X-ACP-API-Key': key } });
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ code: 'invalid_request', param: 'Merchant-Id' });
    const asB = await call(productUrl('b-1'), { headers: { 'X-ACP-API-Key': key, 'Merchant-Id': 'shop-b' } });
    expect(asB.status).toBe(200);
    const asA = await call(productUrl('b-1'), { headers: { 'X-ACP-API-Key': key, 'Merchant-Id': 'shop-a' } });
    expect(asA.status).toBe(404);
  });

  it('refuses a merchant the key does not serve with 403', async () => {
    const reply = await call(productUrl(), { headers: { 'X-ACP-API-Key': keyA, 'Merchant-Id': 'shop-b' } });
    expect(reply.status).toBe(403);
    expect(reply.body.error.type).toBe('authorization_error');
  });
});

describe('request signing', () => {
  let key: string;
  let secret: string;
  const at = (offsetSeconds: number) => new Date(Date.now() + offsetSeconds * 1000).toISOString();

  beforeAll(async () => {
    const created = await gateway.services.keys.create({
      merchantIds: ['shop-a'], env: 'development', scopes: ['*'], tier: 'enterprise', rpm: 10_000, rpd: 100_000, signingSecret: true,
    });
    key = created.key;
    secret = created.signingSecret!;
  });

  const signedGet = (signature: string | undefined, timestamp: string | undefined) =>
    call(productUrl(), {
      headers: { 'X-ACP-API-Key': key, ...(signature ? { Signature: signature } : {}), ...(timestamp ? { Timestamp: timestamp } : {}) },
    });

  it('accepts a body-less request signed over the empty body', async () => {
    expect((await signedGet(signBody(Buffer.alloc(0), secret), at(0))).status).toBe(200);
  });

  it.each([
    ['no Signature', undefined, 0, /Signature header/],
    ['a signature made with another secret', 'other', 0, /does not match/],
    ['a timestamp 301 s old', 'good', -301, /5 minutes/],
    ['a timestamp 301 s ahead', 'good', 301, /5 minutes/],
  ])('refuses %s with 401', async (_name, kind, offset, message) => {
    const signature = kind === 'good' ? signBody(Buffer.alloc(0), secret) : kind === 'other' ? signBody(Buffer.alloc(0), 'ss_wrong') : undefined;
    const reply = await signedGet(signature, at(offset));
    expect(reply.status).toBe(401);
    expect(reply.body.error).toMatchObject({ type: 'authentication_error', message: expect.stringMatching(message) });
  });

  it('accepts a timestamp 299 s old', async () => {
    expect((await signedGet(signBody(Buffer.alloc(0), secret), at(-299))).status).toBe(200);
  });

  it.each(['yesterday', '2026-11-22', '1795331588'])('refuses the timestamp %j', async (timestamp) => {
    expect((await signedGet(signBody(Buffer.alloc(0), secret), timestamp)).status).toBe(401);
  });

  it('verifies the raw body bytes, and still parses and validates the JSON', async () => {
    const raw = '{ "items" : [ ] }';
    const post = (signature: string) =>
      fetch(`${gateway.url}/checkout_sessions`, {
        method: 'POST',
        headers: { 'X-ACP-API-Key': key, 'Content-Type': 'application/json', Signature: signature, Timestamp: at(0) },
        body: raw,
      });
    const reSerialised = await post(signBody(Buffer.from(JSON.stringify(JSON.parse(raw))), secret));
    expect(reSerialised.status).toBe(401);
    const exact = await post(signBody(Buffer.from(raw), secret));
    expect(exact.status).toBe(400); // past the signature: the contract wants at least one item
    expect(await exact.json()).toMatchObject({ code: 'invalid_request', param: 'items' });
  });

  describe('accepts exactly one encoding: standard base64 with its padding, canonical', () => {
    const post = (raw: string, signature: string) =>
      fetch(`${gateway.url}/checkout_sessions`, {
        method: 'POST',
        headers: { 'X-ACP-API-Key': key, 'Content-Type': 'application/json', Signature: signature, Timestamp: at(0) },
        body: raw,
      });
    /** A body whose signature holds both `+` and `/`, so that the url-safe alphabet differs from it. */
    let body: { raw: string; signature: string };
    beforeAll(() => {
      for (let n = 0; ; n++) {
        const raw = `{"items":[],"n":${n}}`;
        const signature = signBody(Buffer.from(raw), secret);
        if (signature.includes('+') && signature.includes('/')) return void (body = { raw, signature });
      }
    });
    const flipLowBits = (signature: string) => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      const last = alphabet.indexOf(signature[42]!);
      return `${signature.slice(0, 42)}${alphabet[last ^ 1]}=`; // same 32 bytes once decoded, other text
    };

    it('passes every request the SDK signs', async () => {
      const gw = new CommerceGateway({ apiKey: key, signingSecret: secret, baseUrl: gateway.url, maxRetries: 0 });
      for (let n = 0; n < 20; n++) {
        const session = await gw.checkoutSessions.create({ items: [{ product_id: 'a-1', quantity: 1 + n }] });
        expect(session.line_items[0]!.quantity).toBe(1 + n);
      }
      expect((await gw.products.retrieve('a-1')).id).toBe('a-1');
    });

    it('passes the signature as signBody() writes it', async () => {
      expect(body.signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect((await post(body.raw, body.signature)).status).toBe(400); // past the signature: items is empty
    });

    it.each([
      ['junk after the padding', (s: string) => `${s}AAAA`],
      ['a character after the padding', (s: string) => `${s}x`],
      ['a second padding character', (s: string) => `${s}=`],
      ['no padding', (s: string) => s.slice(0, -1)],
      ['the url-safe alphabet', (s: string) => s.replaceAll('+', '-').replaceAll('/', '_')],
      ['the url-safe alphabet without padding', (s: string) => s.replaceAll('+', '-').replaceAll('/', '_').slice(0, -1)],
      ['a space inside', (s: string) => `${s.slice(0, 20)} ${s.slice(20)}`],
      ['non-zero bits after the digest (a non-canonical encoding of the same bytes)', flipLowBits],
      ['hex', () => createHmac('sha256', secret).update(body.raw).digest('hex')],
    ])('refuses %s with 401 saying which encoding', async (_name, alter) => {
      const altered = alter(body.signature);
      expect(altered).not.toBe(body.signature);
      const reply = await post(body.raw, altered);
      expect(reply.status).toBe(401);
      expect((await reply.json()).error).toMatchObject({ type: 'authentication_error', message: expect.stringMatching(/standard base64/) });
    });
  });

  it('requires signatures of every key when the gateway says so', async () => {
    const strict = await startTestGateway({ env: { REQUIRE_REQUEST_SIGNING: 'true' }, db: gateway.db });
    try {
      const reply = await call(`${strict.url}/acp/products/a-1`, { headers: { 'X-ACP-API-Key': keyA } });
      expect(reply.status).toBe(401);
      expect(reply.body.error.message).toMatch(/requires signed requests/);
    } finally {
      await strict.close();
    }
  });
});
