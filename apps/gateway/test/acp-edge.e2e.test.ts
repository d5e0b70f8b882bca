/**
 * The ACP profile's edge through real HTTP, every answer validated against the official schemas:
 * discovery (built from PUBLIC_BASE_URL, never from an untrusted Host), API-Version 2026-04-17 required (our own API keeps 2026-11-01 and its default),
 * Bearer with our keys and scopes, Idempotency-Key (required, echoed, replayed, conflicts),
 * Request-Id, Signature/Timestamp over canonical JSON, rate limits, and production's refusal
 * to take payments without a real provider.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpAgent, acpCall, createBody, discoverWith, payWith, SF } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let key: string;
const sessions = () => `${gateway.url}/acp/checkout_sessions`;
const acpHeaders = (extra: Record<string, string | undefined> = {}) => ({ authorization: `Bearer ${key}`, 'api-version': '2026-04-17', 'idempotency-key': randomUUID(), ...extra });

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 10, quantity: 50 }])]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
});

afterAll(() => gateway?.close());

describe('GET /.well-known/acp.json', () => {
  it('needs no key, names no merchant, and says where the API is', async () => {
    const reply = await acpCall(`${gateway.url}/.well-known/acp.json`, 'GET', undefined, {}, 'DiscoveryResponse');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      protocol: { name: 'acp', version: '2026-04-17', supported_versions: ['2026-04-17'] },
      api_base_url: `${gateway.url}/acp`,
      transports: ['rest', 'mcp'],
      capabilities: { services: ['checkout', 'orders'], intervention_types: ['3ds'] },
    });
    expect(reply.body.capabilities.supported_currencies).toEqual(expect.arrayContaining(['usd', 'eur', 'jpy']));
    expect(JSON.stringify(reply.body)).not.toContain('shop');
    const head = await fetch(`${gateway.url}/.well-known/acp.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('without PUBLIC_BASE_URL (development, sandbox) names the origin the request came to, which no shared cache may keep: private, no-store, Vary: Host', async () => {
    const poisoned = await discoverWith(gateway.url, { host: 'evil.example' });
    expect(poisoned.status).toBe(200);
    expect(poisoned.body.api_base_url).toBe('http://evil.example/acp'); // this client's own answer, and only its own:
    expect(poisoned.headers['cache-control']).toBe('private, no-store');
    expect(String(poisoned.headers.vary).split(/\s*,\s*/)).toContain('Host');
    expect(String(poisoned.headers.vary)).not.toMatch(/X-Forwarded/); // without TRUST_PROXY they do not count
    const forwarded = await discoverWith(gateway.url, { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(forwarded.body.api_base_url).toBe(`${gateway.url}/acp`);
    // a Host no document can name is refused in the Error shape (never a 500)
    for (const host of ['evil.example/acp?x=', 'user@evil.example', 'evil.example:99999']) {
      const refused = await discoverWith(gateway.url, { host });
      expect(refused.status, host).toBe(400);
      expect(refused.body).toMatchObject({ type: 'invalid_request', code: 'invalid', message: expect.stringContaining('PUBLIC_BASE_URL') });
    }
  });

  it('behind TRUST_PROXY without PUBLIC_BASE_URL, the forwarded origin counts, and Vary names the forwarded headers too', async () => {
    const proxied = await startTestGateway({ db: gateway.db, env: { TRUST_PROXY: '1' } });
    try {
      const reply = await discoverWith(proxied.url, { host: 'internal:8080', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
      expect(reply.body.api_base_url).toBe('https://evil.example/acp');
      expect(reply.headers['cache-control']).toBe('private, no-store');
      expect(String(reply.headers.vary).split(/\s*,\s*/)).toEqual(expect.arrayContaining(['Host', 'X-Forwarded-Host', 'X-Forwarded-Proto']));
    } finally {
      await proxied.close();
    }
  });

  it('with PUBLIC_BASE_URL names that origin whatever Host or X-Forwarded-* say, and may be cached publicly for an hour', async () => {
    const pinned = await startTestGateway({ db: gateway.db, env: { PUBLIC_BASE_URL: 'https://Gateway.Shop.Example:443/', TRUST_PROXY: '1' } });
    try {
      const requests: Record<string, string>[] = [{}, { host: 'evil.example' }, { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }];
      for (const headers of requests) {
        const reply = await discoverWith(pinned.url, headers);
        expect(reply.status).toBe(200);
        expect(reply.body.api_base_url, JSON.stringify(headers)).toBe('https://gateway.shop.example/acp');
        expect(reply.body.protocol.documentation_url).toBe('https://gateway.shop.example/docs');
        expect(reply.headers['cache-control']).toBe('public, max-age=3600');
        expect(String(reply.headers.vary ?? '')).not.toMatch(/Host|X-Forwarded/); // nothing of the request in it
      }
    } finally {
      await pinned.close();
    }
  });

  it('production does not start without PUBLIC_BASE_URL, saying so in one line', async () => {
    await expect(startTestGateway({ GATEWAY_ENV: 'production' })).rejects.toThrow(/^GATEWAY_ENV=production needs PUBLIC_BASE_URL[^\n]*$/);
  });

  it('is rate limited per client address, with Retry-After', async () => {
    const limited = await startTestGateway({ db: gateway.db, env: {} });
    try {
      // the limit is 300 a minute; the 301st is refused
      const replies = await Promise.all(Array.from({ length: 301 }, () => fetch(`${limited.url}/.well-known/acp.json`).then((r) => r.status)));
      expect(replies.filter((s) => s === 429)).toHaveLength(1);
      const refused = await acpCall(`${limited.url}/.well-known/acp.json`, 'GET', undefined, {}, 'DiscoveryResponse');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
    } finally {
      await limited.close();
    }
  });
});

describe('API-Version', () => {
  it('is required on the ACP profile: missing → 400 missing_api_version, unknown → 400 unsupported_api_version, both with supported_versions', async () => {
    const missing = await acpCall(sessions(), 'POST', createBody(['chair-oak']), acpHeaders({ 'api-version': undefined }), 'CheckoutSession');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ type: 'invalid_request', code: 'missing_api_version', supported_versions: ['2026-04-17'] });
    const old = await acpCall(sessions(), 'POST', createBody(['chair-oak']), acpHeaders({ 'api-version': '2026-01-30' }), 'CheckoutSession');
    expect(old.body).toMatchObject({ code: 'unsupported_api_version', supported_versions: ['2026-04-17'] });
    const ours = await acpCall(sessions(), 'POST', createBody(['chair-oak']), acpHeaders({ 'api-version': '2026-11-01' }), 'CheckoutSession');
    expect(ours.body.code).toBe('unsupported_api_version');
  });

  it('leaves our own API its own version and default', async () => {
    const reply = await fetch(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('api-version')).toBe('2026-11-01');
    const acpVersion = await fetch(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key, 'API-Version': '2026-04-17' } });
    expect(acpVersion.status).toBe(400);
    expect(await acpVersion.json()).toMatchObject({ code: 'invalid_request', supported_versions: ['2026-11-01'] });
  });
});

describe('authentication and scopes', () => {
  it('takes our keys as Bearer tokens only (401 in the Error shape otherwise)', async () => {
    for (const headers of [acpHeaders({ authorization: undefined, 'x-acp-api-key': key }), acpHeaders({ authorization: undefined }), acpHeaders({ authorization: 'Bearer sk_dev_wrong' }), acpHeaders({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` })]) {
      const reply = await acpCall(sessions(), 'POST', createBody(['chair-oak']), headers, 'CheckoutSession');
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ type: 'invalid_request', code: 'authentication_error' });
    }
  });

  it('needs checkout:write to write and checkout:read to read (403)', async () => {
    const reader = await gateway.createKey({ merchantIds: ['shop'], scopes: ['checkout:read'] });
    const refused = await acpCall(sessions(), 'POST', createBody(['chair-oak']), acpHeaders({ authorization: `Bearer ${reader}` }), 'CheckoutSession');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('authorization_error');
    const created = await acpAgent(gateway.url, key).create(createBody(['chair-oak']));
    expect((await acpAgent(gateway.url, reader).get(created.body.id)).status).toBe(200);
    const other = await gateway.createKey({ merchantIds: ['other'] });
    expect((await acpAgent(gateway.url, other).get(created.body.id)).status).toBe(404); // another merchant's session does not exist
  });
});

describe('Idempotency-Key, Request-Id', () => {
  it('is required on every POST (400 idempotency_key_required), not on GET', async () => {
    const reply = await acpCall(sessions(), 'POST', createBody(['chair-oak']), acpHeaders({ 'idempotency-key': undefined }), 'CheckoutSession');
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ type: 'invalid_request', code: 'idempotency_key_required', message: 'Idempotency-Key header is required on all POST requests' });
  });

  it('replays the first answer (same status and body, Idempotent-Replayed), echoes the key, refuses another body with 422', async () => {
    const headers = acpHeaders();
    const first = await acpCall(sessions(), 'POST', createBody(['chair-oak']), headers, 'CheckoutSession');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-key')).toBe(headers['idempotency-key']);
    const again = await acpCall(sessions(), 'POST', { capabilities: { interventions: { supported: ['3ds'] } }, currency: 'usd', line_items: [{ id: 'chair-oak' }] }, headers, 'CheckoutSession');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await gateway.db.prisma.checkoutSession.count({ where: { id: first.body.id } })).toBe(1);
    const conflict = await acpCall(sessions(), 'POST', createBody(['chair-oak', 'chair-oak']), headers, 'CheckoutSession');
    expect(conflict.status).toBe(422);
    expect(conflict.body).toMatchObject({ type: 'invalid_request', code: 'idempotency_conflict' });
  });

  it('replays a completion without charging or ordering twice', async () => {
    const agent = acpAgent(gateway.url, key);
    const s = (await agent.create(createBody(['chair-oak'], { fulfillment_details: { address: SF } }))).body;
    await agent.update(s.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'standard', item_ids: [] }] });
    const headers = { 'idempotency-key': randomUUID() };
    const first = await agent.complete(s.id, payWith('spt_test_approve'), { headers });
    const again = await agent.complete(s.id, payWith('spt_test_approve'), { headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await gateway.db.prisma.order.count({ where: { checkoutSessionId: s.id } })).toBe(1);
  });

  it('echoes the Request-Id', async () => {
    const reply = await acpCall(sessions(), 'POST', createBody(['chair-oak']), acpHeaders({ 'request-id': 'req_agent_42' }), 'CheckoutSession');
    expect(reply.headers.get('request-id')).toBe('req_agent_42');
  });
});

describe('bodies', () => {
  it('answers a body over 1 MiB with 413 and malformed JSON with 400, both in the Error shape', async () => {
    const big = await acpCall(sessions(), 'POST', undefined, acpHeaders(), 'CheckoutSession', JSON.stringify({ ...createBody(['chair-oak']), metadata: { pad: 'x'.repeat(1_100_000) } }));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ type: 'invalid_request', code: 'payload_too_large' });
    const broken = await acpCall(sessions(), 'POST', undefined, acpHeaders(), 'CheckoutSession', '{"line_items":');
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ type: 'invalid_request', code: 'invalid_json' });
  });

  it('answers an unknown path under the profile with 404 and another method with 405 (Allow), in the Error shape', async () => {
    const unknown = await acpCall(`${sessions()}/cs_1/refund`, 'POST', {}, acpHeaders(), undefined);
    expect(unknown.status).toBe(404);
    const put = await acpCall(`${sessions()}/cs_1`, 'PUT', {}, acpHeaders(), undefined);
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, HEAD');
  });
});

describe('Signature and Timestamp', () => {
  it('verifies the HMAC-SHA256 of the canonical JSON body (base64url) within 5 minutes, for keys that sign', async () => {
    const created = await gateway.services.keys.create({ merchantIds: ['shop'], env: 'development', scopes: ['*'], tier: 'enterprise', rpm: 10_000, rpd: 100_000, signingSecret: true });
    const body = createBody(['chair-oak']);
    // the agent signs the canonical form; it may send the same JSON with its keys in any order
    const canonical = '{"capabilities":{"interventions":{"supported":["3ds"]}},"currency":"usd","line_items":[{"id":"chair-oak"}]}';
    const signature = createHmac('sha256', created.signingSecret!).update(canonical).digest('base64url');
    const headers = (extra: Record<string, string>) => acpHeaders({ authorization: `Bearer ${created.key}`, timestamp: new Date().toISOString(), ...extra });
    const good = await acpCall(sessions(), 'POST', body, headers({ signature }), 'CheckoutSession');
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    // one encoding only: the same digest padded, or in standard base64, is refused
    const standard = createHmac('sha256', created.signingSecret!).update(canonical).digest('base64');
    for (const other of [`${signature}=`, standard, `${signature}AA`]) {
      const refused = await acpCall(sessions(), 'POST', body, headers({ signature: other }), 'CheckoutSession');
      expect(refused.status, other).toBe(401);
      expect(refused.body).toMatchObject({ message: expect.stringContaining('base64url') });
    }
    const tampered = await acpCall(sessions(), 'POST', createBody(['chair-oak', 'chair-oak']), headers({ signature }), 'CheckoutSession');
    expect(tampered.status).toBe(401);
    expect(tampered.body).toMatchObject({ code: 'authentication_error', message: expect.stringContaining('canonical JSON') });
    const stale = await acpCall(sessions(), 'POST', body, headers({ signature, timestamp: new Date(Date.now() - 6 * 60_000).toISOString() }), 'CheckoutSession');
    expect(stale.status).toBe(401);
    const unsigned = await acpCall(sessions(), 'POST', body, headers({}), 'CheckoutSession');
    expect(unsigned.status).toBe(401);
  });
});

describe('rate limits', () => {
  it('counts ACP requests against the key, with X-RateLimit-* and a 429 in the Error shape with Retry-After', async () => {
    const limited = await gateway.createKey({ merchantIds: ['shop'], tier: 'enterprise', rpm: 2, rpd: 1000 });
    const agent = acpAgent(gateway.url, limited);
    const first = await agent.get('cs_none');
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    await agent.get('cs_none');
    const refused = await agent.get('cs_none');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ type: 'invalid_request', code: 'rate_limit_exceeded' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('production without a payment provider', () => {
  it('offers no payment handler and refuses completion with a clear error until a real provider is configured', async () => {
    const prod = await startTestGateway({ GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'https://gateway.shop.example' });
    try {
      await prod.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 10, quantity: 5 }])]);
      const agent = acpAgent(prod.url, await prod.createKey({ merchantIds: ['shop'] }));
      const s = (await agent.create(createBody(['chair-oak'], { fulfillment_details: { address: SF } }))).body;
      expect(s.capabilities.payment.handlers).toEqual([]);
      await agent.update(s.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'standard', item_ids: [] }] });
      const refused = await agent.complete(s.id, payWith('spt_test_approve'));
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ type: 'service_unavailable', code: 'payment_provider_not_configured', message: expect.stringContaining('PSP adapter') });
      expect(await prod.db.prisma.order.count()).toBe(0);
    } finally {
      await prod.close();
    }
  });
});
