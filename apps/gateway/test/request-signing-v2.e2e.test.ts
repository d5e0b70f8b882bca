/**
 * Request signing v2 (X-Request-Signature over method, target, Merchant-Id, body and time) beside
 * SPEC's body-only Signature, through real HTTP. The v2 digest is computed here from the
 * documented formula, not with the gateway's own signer.
 */
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommerceGateway } from '@commerce-gateway/sdk';
import { signBody } from '../src/auth/request-signature.js';
import { product } from './support/fixtures.js';
import { acpAgent, createBody } from './support/acp.js';
import { call, type Reply } from './support/http.js';
import { json, shoppingPlatformProfile, startProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
const limits = { tier: 'enterprise' as const, rpm: 1_000_000, rpd: 10_000_000 };
/** A key that requires v2, and one that keeps SPEC's scheme (and may also sign v2). */
let strict: { key: string; secret: string };
let legacy: { key: string; secret: string };

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop-a', [product({ id: 'a-1' })]);
  const v2 = await gateway.services.keys.create({ merchantIds: ['shop-a'], env: 'development', scopes: ['*'], ...limits, signingSecret: true, signatureScheme: 'v2' });
  const body = await gateway.services.keys.create({ merchantIds: ['shop-a'], env: 'development', scopes: ['*'], ...limits, signingSecret: true });
  strict = { key: v2.key, secret: v2.signingSecret! };
  legacy = { key: body.key, secret: body.signingSecret! };
});
afterAll(() => gateway?.close());

const nowSeconds = () => Math.floor(Date.now() / 1000);
const rfc3339 = () => new Date().toISOString();

function v2(secret: string, method: string, target: string, body = '', t = nowSeconds(), merchantId = ''): string {
  const bodyDigest = createHash('sha256').update(body).digest('hex');
  const digest = createHmac('sha256', secret).update(`v2\n${t}\n${method}\n${target}\n${merchantId}\n${bodyDigest}`).digest('hex');
  return `t=${t},v2=${digest}`;
}

async function send(method: string, target: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return call(`${gateway.url}${target}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body }),
  });
}

/** A new open session, created by `who` signing as the SDK does: v2 and SPEC's body signature both. */
async function newSession(who: { key: string; secret: string }): Promise<string> {
  const body = JSON.stringify({ items: [{ product_id: 'a-1', quantity: 1 }] });
  const headers = { 'X-ACP-API-Key': who.key, 'X-Request-Signature': v2(who.secret, 'POST', '/checkout_sessions', body), Signature: signBody(Buffer.from(body), who.secret), Timestamp: rfc3339() };
  const reply = await send('POST', '/checkout_sessions', headers, body);
  expect(reply.status).toBe(201);
  return reply.body.checkout_session.id as string;
}

const refused = (reply: Reply, message: RegExp) => {
  expect(reply.status).toBe(401);
  expect(reply.body).toEqual({ error: { type: 'authentication_error', message: expect.stringMatching(message) } });
};

describe('a signature cannot be replayed onto another request', () => {
  it("refuses SPEC's empty-body signature, captured from one cancel, on another session's cancel for a key that requires v2", async () => {
    const [mine, theirs] = [await newSession(strict), await newSession(strict)];
    const captured = { Signature: signBody(Buffer.alloc(0), strict.secret), Timestamp: rfc3339() };
    const replay = await send('POST', `/checkout_sessions/${theirs}/cancel`, { 'X-ACP-API-Key': strict.key, ...captured });
    refused(replay, /requires the v2 request signature/);
    // Even on the request it was made for: a v2 key takes no body-only signature.
    refused(await send('POST', `/checkout_sessions/${mine}/cancel`, { 'X-ACP-API-Key': strict.key, ...captured }), /X-Request-Signature/);
    const still = await send('GET', `/checkout_sessions/${theirs}`, { 'X-ACP-API-Key': strict.key, 'X-Request-Signature': v2(strict.secret, 'GET', `/checkout_sessions/${theirs}`) });
    expect(still.body.checkout_session.status).toBe('open');
  });

  it("refuses a v2 cancel's signature on another session's cancel, and takes it on its own", async () => {
    const [mine, theirs] = [await newSession(strict), await newSession(strict)];
    const signature = v2(strict.secret, 'POST', `/checkout_sessions/${mine}/cancel`);
    refused(await send('POST', `/checkout_sessions/${theirs}/cancel`, { 'X-ACP-API-Key': strict.key, 'X-Request-Signature': signature }), /does not match/);
    const own = await send('POST', `/checkout_sessions/${mine}/cancel`, { 'X-ACP-API-Key': strict.key, 'X-Request-Signature': signature });
    expect(own).toMatchObject({ status: 200 });
    expect(own.body.checkout_session.status).toBe('canceled');
  });

  it('refuses a v2 signature moved onto another method, path, query, merchant, body or time', async () => {
    const session = await newSession(strict);
    const t = nowSeconds();
    const target = `/checkout_sessions/${session}`;
    const headers = (signature: string) => ({ 'X-ACP-API-Key': strict.key, 'X-Request-Signature': signature });
    const patch = JSON.stringify({ items: [{ product_id: 'a-1', quantity: 2 }] });
    // The untouched request passes…
    expect((await send('GET', target, headers(v2(strict.secret, 'GET', target, '', t)))).status).toBe(200);
    expect((await send('GET', '/acp/products?page_size=1', headers(v2(strict.secret, 'GET', '/acp/products?page_size=1', '', t)))).status).toBe(200);
    // …each change does not.
    refused(await send('PATCH', target, headers(v2(strict.secret, 'GET', target, '', t))), /does not match/);
    refused(await send('POST', `${target}/cancel`, headers(v2(strict.secret, 'POST', target, '', t))), /does not match/);
    refused(await send('GET', '/acp/products/a-1', headers(v2(strict.secret, 'GET', target, '', t))), /does not match/);
    refused(await send('GET', '/acp/products?page_size=2', headers(v2(strict.secret, 'GET', '/acp/products?page_size=1', '', t))), /does not match/);
    refused(await send('GET', '/acp/products?page_size=1&q=x', headers(v2(strict.secret, 'GET', '/acp/products?page_size=1', '', t))), /does not match/);
    refused(await send('GET', '/acp/products', headers(v2(strict.secret, 'GET', '/acp/products?page_size=1', '', t))), /does not match/);
    refused(await send('GET', target, { ...headers(v2(strict.secret, 'GET', target, '', t)), 'Merchant-Id': 'shop-a' }), /does not match/);
    refused(await send('PATCH', target, headers(v2(strict.secret, 'PATCH', target, JSON.stringify({ items: [] }), t)), patch), /does not match/);
    const signed = v2(strict.secret, 'GET', target, '', t);
    refused(await send('GET', target, headers(signed.replace(`t=${t}`, `t=${t + 1}`))), /does not match/);
    refused(await send('GET', target, headers(v2('ss_another_secret', 'GET', target, '', t))), /does not match/);
    const updated = await send('PATCH', target, headers(v2(strict.secret, 'PATCH', target, patch, t)), patch);
    expect(updated.status).toBe(200);
    expect(updated.body.checkout_session.line_items[0].quantity).toBe(2);
  });

  it('signs the query exactly as sent: percent-encoding and order untouched', async () => {
    const target = '/acp/products?q=red%20shoe&page_size=3';
    const headers = (signature: string) => ({ 'X-ACP-API-Key': strict.key, 'X-Request-Signature': signature });
    expect(await send('GET', target, headers(v2(strict.secret, 'GET', target)))).toMatchObject({ status: 200 });
    refused(await send('GET', target, headers(v2(strict.secret, 'GET', '/acp/products?q=red+shoe&page_size=3'))), /does not match/);
    refused(await send('GET', target, headers(v2(strict.secret, 'GET', '/acp/products?page_size=3&q=red%20shoe'))), /does not match/);
  });
});

describe('the window', () => {
  const target = '/acp/products/a-1';
  const get = (t: number, who = strict, url = gateway.url) =>
    call(`${url}${target}`, { headers: { 'X-ACP-API-Key': who.key, 'X-Request-Signature': v2(who.secret, 'GET', target, '', t) } });

  it.each([
    ['301 s old', -301],
    ['301 s ahead', 301],
    ['a day old', -86_400],
    ['0 (1970)', 'zero'],
  ] as const)('refuses t %s with 401 authentication_error', async (_name, offset) => {
    refused(await get(offset === 'zero' ? 0 : nowSeconds() + offset), /300 seconds away from the server clock/);
  });

  it('takes t 295 s old and 295 s ahead', async () => {
    expect((await get(nowSeconds() - 295)).status).toBe(200);
    expect((await get(nowSeconds() + 295)).status).toBe(200);
  });

  it('follows REQUEST_SIGNATURE_WINDOW', async () => {
    const tight = await startTestGateway({ env: { REQUEST_SIGNATURE_WINDOW: '30' }, db: gateway.db });
    try {
      const reply = await get(nowSeconds() - 40, strict, tight.url);
      refused(reply, /30 seconds away/);
      expect((await get(nowSeconds() - 20, strict, tight.url)).status).toBe(200);
    } finally {
      await tight.close();
    }
  });
});

describe('the header', () => {
  const target = '/acp/products/a-1';
  it.each([
    ['empty', () => ''],
    ['no t', (s: string) => s.replace(/^t=\d+,/, '')],
    ['no v2', (s: string) => s.replace(/,v2=.*/, '')],
    ['two t', (s: string) => `t=1,${s}`],
    ['t not digits', (s: string) => s.replace(/^t=\d+/, 't=soon')],
    ['t with a fraction', (s: string) => s.replace(/^t=(\d+)/, 't=$1.5')],
    ['t of 13 digits', () => `t=1${'0'.repeat(12)},v2=${'a'.repeat(64)}`],
    ['upper-case hex', (s: string) => s.replace(/v2=(\w+)/, (_m, d: string) => `v2=${d.toUpperCase()}`)],
    ['a short digest', (s: string) => s.slice(0, -2)],
    ['base64 in place of hex', (s: string) => s.replace(/v2=\w+/, `v2=${Buffer.alloc(32, 7).toString('base64')}`)],
    ['junk between parts', (s: string) => s.replace(',', ';')],
    ['a part without =', (s: string) => `${s},junk`],
    ['a very long value', (s: string) => `${s},${'x1=a,'.repeat(400)}x=1`],
  ])('refuses %s with 401 saying the form, never 500', async (_name, alter) => {
    const reply = await call(`${gateway.url}${target}`, { headers: { 'X-ACP-API-Key': strict.key, 'X-Request-Signature': alter(v2(strict.secret, 'GET', target)) } });
    refused(reply, /must be t=<unix seconds>,v2=/);
  });

  it('takes spaces after commas, parts in any order, other schemes named beside v2, and several v2 digests', async () => {
    const signed = v2(strict.secret, 'GET', target);
    const [t, digest] = signed.split(',');
    for (const header of [`${t}, ${digest}`, `${digest},${t}`, `${t},v3=abc,${digest}`, `${t},v2=${'0'.repeat(64)},${digest}`]) {
      expect((await call(`${gateway.url}${target}`, { headers: { 'X-ACP-API-Key': strict.key, 'X-Request-Signature': header } })).status).toBe(200);
    }
  });
});

describe("keys that keep SPEC's scheme", () => {
  it("still take SPEC's body-only Signature, also replayed onto another session's cancel (why v2 exists)", async () => {
    const [mine, theirs] = [await newSession(legacy), await newSession(legacy)];
    const captured = { Signature: signBody(Buffer.alloc(0), legacy.secret), Timestamp: rfc3339() };
    expect((await send('POST', `/checkout_sessions/${mine}/cancel`, { 'X-ACP-API-Key': legacy.key, ...captured })).status).toBe(200);
    expect((await send('POST', `/checkout_sessions/${theirs}/cancel`, { 'X-ACP-API-Key': legacy.key, ...captured })).status).toBe(200);
  });

  it('check X-Request-Signature whenever it is sent, whatever Signature says', async () => {
    const target = '/acp/products/a-1';
    const spec = { Signature: signBody(Buffer.alloc(0), legacy.secret), Timestamp: rfc3339() };
    expect((await send('GET', target, { 'X-ACP-API-Key': legacy.key, 'X-Request-Signature': v2(legacy.secret, 'GET', target) })).status).toBe(200);
    refused(await send('GET', target, { 'X-ACP-API-Key': legacy.key, ...spec, 'X-Request-Signature': v2(legacy.secret, 'GET', '/acp/products') }), /does not match/);
  });
});

describe('the SDK', () => {
  it('signs v2 (and SPEC) on every request, so a key that requires v2 works through it', async () => {
    const gw = new CommerceGateway({ apiKey: strict.key, signingSecret: strict.secret, baseUrl: gateway.url, maxRetries: 0 });
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'a-1', quantity: 1 }] });
    expect((await gw.checkoutSessions.cancel(session.id)).status).toBe('canceled');
    expect(await gw.products.search({ q: 'red shoe', page_size: 2 })).toBeTruthy();
  });
});

describe('the ACP profile', () => {
  it("refuses the RFC's body-only Signature from a key that requires v2 (on another session's cancel too), and takes X-Request-Signature", async () => {
    const agent = acpAgent(gateway.url, strict.key);
    const raw = '{"capabilities":{"interventions":{"supported":["3ds"]}},"currency":"usd","line_items":[{"id":"a-1"}]}'; // canonical JSON
    const session = async () => {
      const both = { 'x-request-signature': v2(strict.secret, 'POST', '/acp/checkout_sessions', raw), signature: createHmac('sha256', strict.secret).update(raw).digest('base64url'), timestamp: rfc3339() };
      const created = await agent.create(undefined, { raw, headers: both });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };
    const [mine, theirs] = [await session(), await session()];
    const emptyBody = { signature: createHmac('sha256', strict.secret).update('').digest('base64url'), timestamp: rfc3339() };
    const replay = await agent.cancel(theirs, undefined, { headers: emptyBody });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/requires the v2 request signature/);
    const signature = v2(strict.secret, 'POST', `/acp/checkout_sessions/${mine}/cancel`);
    expect((await agent.cancel(theirs, undefined, { headers: { 'x-request-signature': signature } })).status).toBe(401);
    const own = await agent.cancel(mine, undefined, { headers: { 'x-request-signature': signature } });
    expect(own.status).toBe(200);
    expect(own.body.status).toBe('canceled');
  });

  it("still takes the RFC's Signature from a key whose scheme is body", async () => {
    const agent = acpAgent(gateway.url, legacy.key);
    const raw = JSON.stringify(createBody(['a-1']));
    const created = await agent.create(undefined, { raw, headers: { 'x-request-signature': v2(legacy.secret, 'POST', '/acp/checkout_sessions', raw) } });
    const emptyBody = { signature: createHmac('sha256', legacy.secret).update('').digest('base64url'), timestamp: rfc3339() };
    expect((await agent.cancel(created.body.id, undefined, { headers: emptyBody })).status).toBe(200);
  });
});

describe('the UCP profile', () => {
  it('requires X-Request-Signature from a key that requires v2, and checks it', async () => {
    const profiles = await startProfileServer();
    profiles.route('/platform', json(shoppingPlatformProfile('2026-04-08')));
    try {
      const body = JSON.stringify({ query: 'shoe', pagination: { limit: 1 } });
      const search = (key: string, extra: Record<string, string> = {}) =>
        send('POST', '/ucp/catalog/search', { authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profiles.url}/platform"`, 'idempotency-key': crypto.randomUUID(), ...extra }, body);
      const unsigned = await search(strict.key);
      expect(unsigned.status).toBe(401);
      expect(JSON.stringify(unsigned.body)).toMatch(/requires the v2 request signature/);
      expect((await search(strict.key, { 'X-Request-Signature': v2(strict.secret, 'POST', '/ucp/catalog/search', '{}') })).status).toBe(401);
      const signed = await search(strict.key, { 'X-Request-Signature': v2(strict.secret, 'POST', '/ucp/catalog/search', body) });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      expect((await search(legacy.key)).status).toBe(200); // a body key: unchanged
    } finally {
      await profiles.close();
    }
  });
});
