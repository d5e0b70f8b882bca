/**
 * The MCP endpoint's connection and what each tool call is allowed, against a real gateway:
 * no key or a wrong key is 401 (a JSON-RPC error, `WWW-Authenticate`) before any tool runs;
 * every call is REST's, with the connection's key — another merchant's session does not exist
 * for it, a key without a scope is refused, the key's rate limit counts tool calls, and a
 * signing key's `meta.signature`/`meta.timestamp` are checked as REST checks them.
 */
import { createHmac, randomUUID as uuid } from 'node:crypto';
import { canonicalJson } from '../src/acp/canonical-json.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBody } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { mcpAgent } from './support/mcp.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const META = { api_version: '2026-04-17' };
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('lamp', [{ sku: 'lamp-brass', price: 30, quantity: 5 }])]);
  await gateway.importProducts('rival', [stocked('lamp', [{ sku: 'lamp-brass', price: 30, quantity: 5 }])]);
});

afterAll(() => gateway?.close());

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
const toolCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_checkout_session', arguments: { meta: META, payload: createBody(['lamp-brass']) } } };

async function post(body: unknown, headers: Record<string, string>) {
  const response = await fetch(`${gateway.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { error?: { code: number; message: string; data?: Record<string, unknown> } } };
}

describe('the MCP connection', () => {
  it.each([
    ['no key', {}],
    ['an unknown key', { authorization: 'Bearer sk_dev_not_a_key' }],
    ['a key of another environment', { authorization: 'Bearer sk_live_0123456789abcdef' }],
    ['a malformed Authorization', { authorization: 'Token abc' }],
  ])('refuses %s with 401 before any tool runs', async (_name, headers) => {
    const before = await gateway.db.prisma.checkoutSession.count();
    for (const message of [initialize, toolCall]) {
      const reply = await post(message, headers);
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
      expect(reply.body.error).toMatchObject({ code: -32000, message: 'Unauthorized', data: { code: 'authentication_error' } });
    }
    const get = await fetch(`${gateway.url}/mcp`, { headers: { accept: 'text/event-stream', ...headers } });
    expect(get.status).toBe(401);
    expect(await gateway.db.prisma.checkoutSession.count()).toBe(before);
  });

  it('refuses the official client without a key', async () => {
    await expect(mcpAgent(gateway.url, undefined)).rejects.toThrow(/401|Unauthorized/);
  });

  it('answers only POST (stateless: no stream to GET, no session to DELETE)', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop'] });
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${gateway.url}/mcp`, { method, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});

describe('tool calls are REST calls with the connection key', () => {
  it("never shows one merchant's session to another merchant's key", async () => {
    const shop = await mcpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
    const rival = await mcpAgent(gateway.url, await gateway.createKey({ merchantIds: ['rival'] }));
    try {
      const created = await shop.call('create_checkout_session', { meta: META, payload: createBody(['lamp-brass']) });
      const id = (created.result!.structuredContent as { id: string }).id;
      const seen = await rival.call('get_checkout_session', { meta: META, id });
      const changed = await rival.call('update_checkout_session', { meta: META, id, payload: { line_items: [{ id: 'lamp-brass', quantity: 3 }] } });
      const canceled = await rival.call('cancel_checkout_session', { meta: META, id });
      for (const { error } of [seen, changed, canceled]) {
        expect(error?.code).toBe(-32000);
        expect(error?.data).toMatchObject({ type: 'invalid_request' });
        expect(JSON.stringify(error?.data)).not.toContain('lamp');
      }
      const mine = await shop.call('get_checkout_session', { meta: META, id });
      expect(mine.result!.structuredContent).toMatchObject({ id, status: 'not_ready_for_payment', line_items: [{ quantity: 1 }] });
    } finally {
      await shop.close();
      await rival.close();
    }
  });

  it('acts for the merchant the connection names in Merchant-Id when the key serves several', async () => {
    const both = await gateway.createKey({ merchantIds: ['shop', 'rival'] });
    const unnamed = await mcpAgent(gateway.url, both);
    const named = await mcpAgent(gateway.url, both, { 'merchant-id': 'rival' });
    try {
      const { error } = await unnamed.call('create_checkout_session', { meta: META, payload: createBody(['lamp-brass']) });
      expect(error?.data).toMatchObject({ type: 'invalid_request' });
      const { result } = await named.call('create_checkout_session', { meta: META, payload: createBody(['lamp-brass']) });
      const id = (result!.structuredContent as { id: string }).id;
      const rivalOnly = await mcpAgent(gateway.url, await gateway.createKey({ merchantIds: ['rival'] }));
      expect((await rivalOnly.call('get_checkout_session', { meta: META, id })).result!.structuredContent).toMatchObject({ id });
      await rivalOnly.close();
    } finally {
      await unnamed.close();
      await named.close();
    }
  });

  it('refuses a call the key has no scope for (403 as -32000)', async () => {
    const reader = await mcpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'], scopes: ['checkout:read'] }));
    try {
      const { error } = await reader.call('create_checkout_session', { meta: META, payload: createBody(['lamp-brass']) });
      expect(error?.code).toBe(-32000);
      expect(error?.data).toMatchObject({ type: 'invalid_request', code: 'authorization_error' });
    } finally {
      await reader.close();
    }
  });

  it("counts tool calls against the key's rate limit", async () => {
    const limited = await mcpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'], tier: 'enterprise', rpm: 2, rpd: 100 }));
    try {
      const calls = [];
      for (let i = 0; i < 3; i++) calls.push(await limited.call('get_checkout_session', { meta: META, id: `cs_${i}` }));
      expect(calls.map(({ error }) => (error?.data as { code?: string } | undefined)?.code)).toEqual([expect.not.stringMatching(/rate/), expect.not.stringMatching(/rate/), 'rate_limit_exceeded']);
    } finally {
      await limited.close();
    }
  });

  it("checks a signing key's meta.signature over the payload's canonical JSON, as REST checks the body", async () => {
    const { key, signingSecret } = await gateway.services.keys.create({ env: gateway.config.env, merchantIds: ['shop'], scopes: ['*'], tier: 'enterprise', rpm: 1000, rpd: 1000, signingSecret: true });
    const signer = await mcpAgent(gateway.url, key);
    try {
      const payload = createBody(['lamp-brass']);
      const timestamp = new Date().toISOString();
      const sign = (value: unknown) => createHmac('sha256', signingSecret!).update(canonicalJson(value)).digest('base64url');
      const signature = sign(payload);
      const signed = await signer.call('create_checkout_session', { meta: { ...META, idempotency_key: uuid(), signature, timestamp }, payload });
      expect(signed.error).toBeUndefined();
      expect(signed.result!.structuredContent).toMatchObject({ status: 'not_ready_for_payment' });
      const forged = await signer.call('create_checkout_session', { meta: { ...META, signature: sign({}), timestamp }, payload });
      expect(forged.error?.code).toBe(-32000);
      const unsigned = await signer.call('create_checkout_session', { meta: META, payload });
      expect(unsigned.error?.code).toBe(-32000);
    } finally {
      await signer.close();
    }
  });
});
