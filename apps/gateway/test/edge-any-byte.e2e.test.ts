/**
 * No byte a client sends is a 500 (issue 35, item 8), on a real gateway started with
 * NODE_ENV=development (where Express's own error page would show a stack): a NUL in an id of
 * every profile's path, a body that says gzip and is not, a malformed percent-encoding, bad
 * JSON — each is the 400 of that profile's contract, in its error shape, and nothing reaches
 * the database. MCP tool ids with a NUL or a lone surrogate, and params not of MCP's shape, are
 * JSON-RPC -32602 with one readable sentence.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../src/kernel/errors.js';
import { apiErrors } from '../src/http/api-errors.js';
import { problemHandler } from '../src/http/edge.js';
import { lastResort } from '../src/http/last-resort.js';
import { listenOn } from '../src/server.js';
import { stocked } from './support/checkout.js';
import { call, type Reply } from './support/http.js';
import { mcpAgent, type McpAgent } from './support/mcp.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let profiles: ProfileServer;
let mcp: McpAgent;
let key = '';
let operator = '';
let profile = '';

beforeAll(async () => {
  gateway = await startTestGateway({ NODE_ENV: 'development' });
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 20, quantity: 10 }])]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
  operator = (await gateway.services.admin.operators.create({ name: 'root', access: 'full', allMerchants: true })).token;
  profiles = await startProfileServer();
  profiles.route('/platform', json(shoppingPlatformProfile('2026-04-08')));
  profile = `${profiles.url}/platform`;
  mcp = await mcpAgent(gateway.url, key);
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await profiles?.close();
  await gateway?.close();
});

const acp = () => ({ authorization: `Bearer ${key}`, 'api-version': '2026-04-17', 'idempotency-key': randomUUID() });
const ucp = () => ({ authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profile}"`, 'request-id': randomUUID(), 'idempotency-key': randomUUID() });
const admin = () => ({ authorization: `Bearer ${operator}` });
const ours = () => ({ 'x-acp-api-key': key });

/** The error shape of each profile, with its message. */
const SHAPES = {
  acp: (body: any) => (expect(body).toMatchObject({ type: 'invalid_request', code: expect.any(String) }), body.message as string), // eslint-disable-line @typescript-eslint/no-explicit-any
  ucp: (body: any) => (expect(body).toMatchObject({ code: expect.stringMatching(/^invalid_/) }), body.content as string), // eslint-disable-line @typescript-eslint/no-explicit-any
  admin: (body: any) => (expect(body.error).toMatchObject({ type: 'invalid_request', request_id: expect.any(String) }), body.error.message as string), // eslint-disable-line @typescript-eslint/no-explicit-any
  ours: (body: any) => (expect(body).toMatchObject({ code: 'invalid_request' }), body.detail as string), // eslint-disable-line @typescript-eslint/no-explicit-any
};

function expectRefused(reply: Reply, shape: keyof typeof SHAPES, says: RegExp): void {
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(SHAPES[shape](reply.body)).toMatch(says);
  expect(JSON.stringify(reply.body)).not.toMatch(/\n\s+at |node_modules/);
}

describe('a NUL in an id', () => {
  it.each([
    ['acp', 'GET', '/acp/checkout_sessions/%00', acp, 'checkout_session_id'],
    ['acp', 'POST', '/acp/checkout_sessions/cs_%00/complete', acp, 'checkout_session_id'],
    ['ucp', 'GET', '/ucp/orders/ord_%00', ucp, 'id'],
    ['ucp', 'GET', '/ucp/checkout-sessions/%00', ucp, 'id'],
    ['ucp', 'GET', '/ucp/carts/%00', ucp, 'id'],
    ['admin', 'GET', '/admin/merchants/shop/orders/%00', admin, 'order_id'],
    ['admin', 'POST', '/admin/keys/%00/revoke', admin, 'key_id'],
    ['admin', 'GET', '/admin/merchants/shop/customers/a%00b', admin, 'customer_id'],
    ['ours', 'GET', '/checkout_sessions/%00', ours, 'session_id'],
    ['ours', 'GET', '/orders/%00', ours, 'order_id'],
  ] as const)('%s %s %s is the profile’s 400, naming the parameter, before any database', async (shape, method, path, headers, param) => {
    const reply = await call(`${gateway.url}${path}`, { method, headers: headers(), ...(method === 'POST' ? { json: {} } : {}) });
    expectRefused(reply, shape, new RegExp(`${param} holds a NUL character`));
  });
});

describe('a body that says gzip and is not', () => {
  it.each([
    ['acp', '/acp/checkout_sessions', acp],
    ['ucp', '/ucp/checkout-sessions', ucp],
    ['admin', '/admin/merchants', admin],
    ['ours', '/checkout_sessions', ours],
  ] as const)('is %s’s 400', async (shape, path, headers) => {
    const reply = await call(`${gateway.url}${path}`, { method: 'POST', headers: { ...headers(), 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{"not":"gzip"}' });
    expectRefused(reply, shape, /not valid gzip data/);
  });
});

describe('development pages', () => {
  it.each([
    ['acp', 'GET', '/acp/checkout_sessions/%E0', acp, undefined, /percent-encoded/],
    ['ucp', 'GET', '/ucp/checkout-sessions/%', ucp, undefined, /percent-encoded/],
    ['acp', 'POST', '/acp/checkout_sessions', acp, '{"line_items":', /Malformed JSON/],
    ['ucp', 'POST', '/ucp/checkout-sessions', ucp, '{"line_items":', /Malformed JSON/],
    ['admin', 'POST', '/admin/merchants', admin, '{"id":', /Malformed JSON/],
    ['ours', 'GET', '/testing/simulate-shipping/%E0', ours, undefined, /percent-encoded/],
  ] as const)('never show a stack: %s %s %s answers JSON in the profile’s shape', async (shape, method, path, headers, body, says) => {
    const reply = await call(`${gateway.url}${path}`, { method: method === 'GET' && path.startsWith('/testing') ? 'POST' : method, headers: { ...headers(), ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body } : {}) });
    expect(reply.status).toBeLessThan(500);
    expect(typeof reply.body).toBe('object'); // never Express's HTML page
    if (reply.status === 400) expect(SHAPES[shape](reply.body)).toMatch(says);
  });
});

describe('an error while answering an error', () => {
  it('is the protocol’s internal error as JSON, never Express’s page with the stack', async () => {
    // A response validator that refuses the answer to an error (a status its contract does not list) calls next(error) again.
    const app = express();
    app.use((_req, res, next) => {
      const json = res.json.bind(res);
      res.json = (body: unknown) => (res.statusCode === 400 ? (next(new Error('no schema defined for status code 400')), res) : json(body));
      next(new InvalidRequestError('refused'));
    });
    const logger = pino({ level: 'silent' });
    app.use([problemHandler(() => apiErrors, logger), lastResort(() => apiErrors, logger)]);
    const listening = await listenOn(app, '127.0.0.1', 0);
    try {
      const reply = await call(`${listening.url}/x`);
      expect(reply.status).toBe(500);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.body).toEqual(apiErrors.internalError.body);
    } finally {
      await listening.close();
    }
  });
});

describe('MCP', () => {
  const meta = () => ({ 'ucp-agent': { profile } });
  it.each([
    ['get_checkout', () => ({ meta: meta(), id: '\u0000' })],
    ['get_checkout', () => ({ meta: meta(), id: 'chk_\ud800' })],
    ['get_order', () => ({ meta: meta(), id: 'ord_\u0000' })],
    ['get_checkout_session', () => ({ meta: { api_version: '2026-04-17' }, id: '\udc00' })],
    ['update_checkout_session', () => ({ meta: { api_version: '2026-04-17' }, id: 'cs_\u0000', payload: {} })],
  ] as const)('%s with an id that cannot be stored is -32602 naming the tool and the id', async (tool, args) => {
    const { error } = await mcp.call(tool, args());
    expect(error?.code).toBe(ErrorCode.InvalidParams);
    expect(error?.message).toContain(`${tool}: id must be a string of storable text`);
  });

  it('refuses a header argument a header cannot carry with -32602, not an internal error', async () => {
    const { error } = await mcp.call('get_checkout_session', { meta: { api_version: '2026-04-17', request_id: 'a\nb' }, id: 'cs_1' });
    expect(error?.code).toBe(ErrorCode.InvalidParams);
    expect(error?.message).toContain('get_checkout_session: meta.request_id must be a string of printable characters');
  });

  it.each([
    [{ name: 5, arguments: {} }, 'tools/call: params.name must be a string, not a number'],
    [{ name: 'get_checkout', arguments: 'x' }, 'tools/call: params.arguments must be an object, not a string'],
    [{ arguments: {} }, 'tools/call: params.name is required'],
  ])('answers params not of MCP’s shape (%j) with -32602 and one sentence, not zod’s issues', async (params, says) => {
    const reply = await call(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params },
    });
    expect(reply.body.error.code).toBe(-32602);
    expect(reply.body.error.message).toContain(says);
    expect(reply.body.error.message).not.toContain('"code"');
  });
});
