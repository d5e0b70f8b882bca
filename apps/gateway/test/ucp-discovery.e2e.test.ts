/**
 * UCP discovery through a real gateway: `/.well-known/ucp` for each release UCP_VERSION can pick,
 * valid against that release's official discovery schema; `supported_versions` linking the older
 * release's own (leaf) profile; endpoints from PUBLIC_BASE_URL; caching; the samples' test payment
 * handler and a per-process signing key outside production, neither in production (a key only from
 * UCP_SIGNING_KEY); and negotiation under /ucp refusing as each release says.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { profileProblems } from './support/official-ucp.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { thumbprint } from '../src/ucp/signing-keys.js';

const PUBLIC = 'https://gateway.shop.example';
const AGENT = 'profile="https://agent.example/.well-known/ucp"';

describe('UCP 2026-04-08 (the default), development, no PUBLIC_BASE_URL', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway?.close());

  it('serves the business profile, valid against the official 2026-04-08 schema', async () => {
    const reply = await call(`${gateway.url}/.well-known/ucp`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(profileProblems('2026-04-08', reply.body)).toEqual([]);
    // The official validators are live: a profile without services or handlers fails both releases.
    expect(profileProblems('2026-04-08', { ucp: { version: '2026-04-08' } })).not.toEqual([]);
    expect(profileProblems('2026-01-11', { ucp: { version: '2026-01-11', services: {} } })).not.toEqual([]);
    const { ucp, signing_keys: keys } = reply.body;
    expect(ucp.version).toBe('2026-04-08');
    expect(ucp.supported_versions).toEqual({ '2026-01-11': `${gateway.url}/.well-known/ucp/2026-01-11` });
    expect(ucp.services['dev.ucp.shopping']).toEqual([
      expect.objectContaining({ version: '2026-04-08', transport: 'rest', endpoint: `${gateway.url}/ucp`, schema: 'https://ucp.dev/2026-04-08/services/shopping/rest.openapi.json' }),
      expect.objectContaining({ version: '2026-04-08', transport: 'mcp', endpoint: `${gateway.url}/mcp`, schema: 'https://ucp.dev/2026-04-08/services/shopping/mcp.openrpc.json' }),
    ]);
    // What is served (src/ucp/capabilities.ts): checkout and its extensions, each pointing at its spec and schema.
    expect(Object.keys(ucp.capabilities)).toEqual(expect.arrayContaining(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.fulfillment', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.buyer_consent']));
    expect(ucp.capabilities['dev.ucp.shopping.fulfillment']).toEqual([{ version: '2026-04-08', spec: 'https://ucp.dev/2026-04-08/specification/fulfillment', schema: 'https://ucp.dev/2026-04-08/schemas/shopping/fulfillment.json', extends: 'dev.ucp.shopping.checkout' }]);
    expect(ucp.payment_handlers['dev.ucp.mock_payment']).toEqual([expect.objectContaining({ id: 'mock_payment_handler', config: { supported_tokens: ['success_token', 'fail_token'] } })]);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: thumbprint(keys[0]) });
    expect(JSON.stringify(reply.body)).not.toMatch(/"d"/); // never the private part
    // Built from the request's Host: never kept by a shared cache.
    expect(reply.headers.get('cache-control')).toBe('private, no-store');
    expect(reply.headers.get('vary')).toMatch(/Host/);
  });

  it('serves the linked 2026-01-11 profile and its own 2026-04-08 profile as leaves, valid against their schemas', async () => {
    const older = await call(`${gateway.url}/.well-known/ucp/2026-01-11`);
    expect(older.status).toBe(200);
    expect(profileProblems('2026-01-11', older.body)).toEqual([]);
    expect(older.body.ucp.version).toBe('2026-01-11');
    expect(older.body.ucp.supported_versions).toBeUndefined();
    expect(older.body.ucp.services['dev.ucp.shopping']).toMatchObject({ rest: { endpoint: `${gateway.url}/ucp` }, mcp: { endpoint: `${gateway.url}/mcp` } });
    expect(older.body.payment.handlers).toEqual([expect.objectContaining({ id: 'mock_payment_handler', name: 'dev.ucp.mock_payment', version: '2026-01-11' })]);
    const current = await call(`${gateway.url}/.well-known/ucp/2026-04-08`);
    expect(profileProblems('2026-04-08', current.body)).toEqual([]);
    expect(current.body.ucp.supported_versions).toBeUndefined();
    // One key for the process, the same in every profile.
    const root = await call(`${gateway.url}/.well-known/ucp`);
    expect(older.body.signing_keys).toEqual(root.body.signing_keys);
  });

  it('answers HEAD; refuses other methods (405) and unknown versions (404) in UCP error shape', async () => {
    expect((await fetch(`${gateway.url}/.well-known/ucp`, { method: 'HEAD' })).status).toBe(200);
    const post = await call(`${gateway.url}/.well-known/ucp`, { method: 'POST', json: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.body).toEqual({ code: 'method_not_allowed', content: expect.any(String) });
    const unknown = await call(`${gateway.url}/.well-known/ucp/2026-01-12`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'not_found', content: expect.stringContaining('2026-01-11 and 2026-04-08') });
  });

  it('negotiates under /ucp: UCP-Agent required and well-formed, versions checked (transport errors, 2026-04-08)', async () => {
    const missing = await call(`${gateway.url}/ucp/checkout-sessions`);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: 'invalid_profile_url', content: expect.stringContaining('UCP-Agent') });
    const malformed = await call(`${gateway.url}/ucp/checkout-sessions`, { headers: { 'ucp-agent': 'profile=https://agent.example' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_profile_url');
    const newer = await call(`${gateway.url}/ucp/checkout-sessions`, { headers: { 'ucp-agent': `${AGENT}, version="2026-09-01"` } });
    expect(newer.status).toBe(422);
    expect(newer.body).toEqual({ code: 'version_unsupported', content: 'Protocol version 2026-09-01 is not supported. This business supports versions 2026-01-11 and 2026-04-08.' });
    // Negotiated, the profile not needed (so never fetched): the operations of the REST binding answer, others do not exist.
    const fine = await call(`${gateway.url}/ucp/nothing-here`, { headers: { 'ucp-agent': AGENT } });
    expect(fine.status).toBe(404);
    expect(fine.body.code).toBe('not_found');
    const method = await call(`${gateway.url}/ucp/checkout-sessions`, { headers: { 'ucp-agent': AGENT } });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('POST');
    const older = await call(`${gateway.url}/ucp/nothing-here`, { headers: { 'ucp-agent': `${AGENT}, version="2026-01-11"` } });
    expect(older.status).toBe(404);
    expect(older.body).toMatchObject({ status: 'requires_escalation', messages: [{ type: 'error', code: 'not_found' }] }); // answered at 2026-01-11
  });

  it('leaves our API and ACP discovery as they were', async () => {
    expect((await call(`${gateway.url}/.well-known/acp.json`)).status).toBe(200);
    expect((await call(`${gateway.url}/ucpx`)).body).toMatchObject({ code: 'not_found' });
  });
});

describe('UCP_VERSION=2026-01-11 with PUBLIC_BASE_URL, sandbox', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ GATEWAY_ENV: 'sandbox', UCP_VERSION: '2026-01-11', PUBLIC_BASE_URL: PUBLIC });
  });
  afterAll(() => gateway?.close());

  it('describes 2026-01-11 at /.well-known/ucp, valid against its official schema, publicly cacheable, endpoints on the public origin', async () => {
    const reply = await call(`${gateway.url}/.well-known/ucp`);
    expect(reply.status).toBe(200);
    expect(profileProblems('2026-01-11', reply.body)).toEqual([]);
    expect(reply.body.ucp.version).toBe('2026-01-11');
    expect(reply.body.ucp.capabilities.map((capability: { name: string }) => capability.name)).toEqual(expect.arrayContaining(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.fulfillment', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.buyer_consent']));
    expect(reply.body.ucp.services['dev.ucp.shopping']).toEqual({
      version: '2026-01-11',
      spec: 'https://ucp.dev/specification/overview',
      rest: { schema: 'https://ucp.dev/services/shopping/rest.openapi.json', endpoint: `${PUBLIC}/ucp` },
      mcp: { schema: 'https://ucp.dev/services/shopping/mcp.openrpc.json', endpoint: `${PUBLIC}/mcp` },
    });
    // 2026-01-11 has no supported_versions, and 2026-04-08 lists only older releases there.
    expect(reply.body.ucp.supported_versions).toBeUndefined();
    expect(reply.body.payment.handlers).toHaveLength(1); // sandbox keeps the test handler
    expect(reply.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(reply.headers.get('vary') ?? '').not.toMatch(/Host/);
  });

  it('speaks no newer release: 2026-04-08 has no profile here and is version_unsupported, refused as 2026-01-11 words it', async () => {
    expect((await call(`${gateway.url}/.well-known/ucp/2026-04-08`)).status).toBe(404);
    const newer = await call(`${gateway.url}/ucp/checkout-sessions`, { headers: { 'ucp-agent': `${AGENT}, version="2026-04-08"` } });
    expect(newer.status).toBe(400);
    expect(newer.body).toEqual({
      status: 'requires_escalation',
      messages: [{ type: 'error', code: 'version_unsupported', content: 'Protocol version 2026-04-08 is not supported. This business supports version 2026-01-11.', severity: 'requires_buyer_input' }],
    });
    const missing = await call(`${gateway.url}/ucp/checkout-sessions`);
    expect(missing.status).toBe(400);
    expect(missing.body.messages[0].code).toBe('invalid_profile_url');
  });
});

describe('production', () => {
  let plain: TestGateway;
  let keyed: TestGateway;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  beforeAll(async () => {
    const production = { GATEWAY_ENV: 'production', PUBLIC_BASE_URL: PUBLIC };
    plain = await startTestGateway(production);
    keyed = await startTestGateway({ env: { ...production, UCP_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() }, db: plain.db });
  });
  afterAll(async () => {
    await keyed?.close();
    await plain?.close();
  });

  it('hides the test payment handler and publishes no generated key', async () => {
    for (const path of ['/.well-known/ucp', '/.well-known/ucp/2026-01-11']) {
      const reply = await call(`${plain.url}${path}`);
      expect(reply.status).toBe(200);
      const release = path.endsWith('2026-01-11') ? '2026-01-11' : '2026-04-08';
      expect(profileProblems(release, reply.body)).toEqual([]);
      expect(JSON.stringify(reply.body)).not.toContain('mock_payment');
      expect(reply.body.signing_keys).toBeUndefined();
    }
    const root = await call(`${plain.url}/.well-known/ucp`);
    expect(root.body.ucp.payment_handlers).toEqual({});
    expect(root.body.ucp.supported_versions).toEqual({ '2026-01-11': `${PUBLIC}/.well-known/ucp/2026-01-11` });
  });

  it('publishes the public half of UCP_SIGNING_KEY, named by its thumbprint', async () => {
    const reply = await call(`${keyed.url}/.well-known/ucp`);
    expect(profileProblems('2026-04-08', reply.body)).toEqual([]);
    const { x, y } = jwk as { x: string; y: string };
    expect(reply.body.signing_keys).toEqual([{ kid: thumbprint({ kty: 'EC', crv: 'P-256', x, y }), kty: 'EC', crv: 'P-256', x, y, use: 'sig', alg: 'ES256' }]);
  });
});
