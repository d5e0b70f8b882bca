/**
 * UCP's tools as REST calls, for both releases' MCP bindings: the official MCP client calls the
 * MCP server (mcp-server.ts, over the SDK's in-memory transport) whose REST calls go over HTTP
 * to a local server that records them and answers what each case needs — so the mapping is
 * checked without the UCP REST operations: method, path, UCP-Agent, Idempotency-Key,
 * Request-Id, the connection's key, body; and every kind of answer as the binding words it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/mcp/mcp-server.js';
import { ucpTools } from '../src/mcp/ucp-tools.js';
import type { UcpVersion } from '../src/ucp/ucp-version.js';

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const PROFILE = 'https://platform.example/profiles/shopping-agent.json';
const KEY = '2b1f6a4e-9c55-4f0e-8d7a-0f3c6a1e2d4b';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let rest: Server;
let port: number;
const recorded: Recorded[] = [];
/** The next answer of the recording server. */
let answer: { status: number; body?: unknown; headers?: Record<string, string> } = { status: 200, body: { id: 'chk_1' } };

beforeAll(async () => {
  rest = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      recorded.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => rest.listen(0, '127.0.0.1', resolve));
  port = (rest.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => rest.close(() => resolve())));

const clients: Client[] = [];
afterEach(async () => {
  recorded.length = 0;
  answer = { status: 200, body: { id: 'chk_1' } };
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(version: UcpVersion): Promise<Client> {
  const server = mcpServer({ tools: ucpTools(version), connection: { authorization: 'Bearer sk_dev_connection' }, target: { host: '127.0.0.1', port }, version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'ucp-platform', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) {
  try {
    return { result: await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }) };
  } catch (error) {
    if (error instanceof McpError) return { error };
    throw error;
  }
}

const meta = (extra: Record<string, unknown> = {}) => ({ 'ucp-agent': { profile: PROFILE }, ...extra });

describe('UCP 2026-04-08 tools (mcp.openrpc.json)', () => {
  it('lists the 13 tools of the OpenRPC document, inputs bundled from the official schemas', async () => {
    const { tools } = await (await connect('2026-04-08')).listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'create_checkout', 'get_checkout', 'update_checkout', 'complete_checkout', 'cancel_checkout',
      'create_cart', 'get_cart', 'update_cart', 'cancel_cart', 'search_catalog', 'lookup_catalog', 'get_order', 'get_product',
    ]);
    const create = tools.find((tool) => tool.name === 'create_checkout')!;
    expect(create.inputSchema.required).toEqual(['meta', 'checkout']);
    expect(create.inputSchema.properties!.checkout).toEqual({ $ref: 'https://ucp.dev/schemas/shopping/checkout.json' });
    expect(Object.keys(create.inputSchema.$defs as object)).toEqual(expect.arrayContaining(['https://ucp.dev/schemas/shopping/checkout.json', 'https://ucp.dev/schemas/shopping/types/line_item.json']));
    const complete = tools.find((tool) => tool.name === 'complete_checkout')!;
    expect(JSON.stringify(complete.inputSchema.properties!.meta)).toContain('idempotency-key');
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name)).toEqual(['get_checkout', 'get_cart', 'search_catalog', 'lookup_catalog', 'get_order', 'get_product']);
    const search = tools.find((tool) => tool.name === 'search_catalog')!;
    expect(search.inputSchema.properties!.catalog).toEqual({ $ref: 'https://ucp.dev/schemas/shopping/catalog_search.json#/$defs/search_request' });
  });

  it.each([
    ['create_checkout', { checkout: { line_items: [] } }, 'POST', '/ucp/checkout-sessions', { line_items: [] }],
    ['get_checkout', { id: 'chk_1' }, 'GET', '/ucp/checkout-sessions/chk_1', undefined],
    ['update_checkout', { id: 'chk_1', checkout: { buyer: {} } }, 'PUT', '/ucp/checkout-sessions/chk_1', { buyer: {} }],
    ['complete_checkout', { id: 'chk_1', checkout: { payment: {} } }, 'POST', '/ucp/checkout-sessions/chk_1/complete', { payment: {} }],
    ['cancel_checkout', { id: 'chk_1' }, 'POST', '/ucp/checkout-sessions/chk_1/cancel', undefined],
    ['create_cart', { cart: { line_items: [] } }, 'POST', '/ucp/carts', { line_items: [] }],
    ['get_cart', { id: 'cart_1' }, 'GET', '/ucp/carts/cart_1', undefined],
    ['update_cart', { id: 'cart_1', cart: { line_items: [] } }, 'PUT', '/ucp/carts/cart_1', { line_items: [], id: 'cart_1' }], // cart.json: update requires id
    ['cancel_cart', { id: 'cart_1' }, 'POST', '/ucp/carts/cart_1/cancel', undefined],
    ['search_catalog', { catalog: { query: 'lamp' } }, 'POST', '/ucp/catalog/search', { query: 'lamp' }],
    ['lookup_catalog', { catalog: { ids: ['lamp'] } }, 'POST', '/ucp/catalog/lookup', { ids: ['lamp'] }],
    ['get_product', { catalog: { id: 'lamp' } }, 'POST', '/ucp/catalog/product', { id: 'lamp' }],
    ['get_order', { id: 'ord_1' }, 'GET', '/ucp/orders/ord_1', undefined],
  ])('%s is %s %s', async (name, args, method, path, body) => {
    const needsKey = name === 'complete_checkout' || name.startsWith('cancel_');
    const { result, error } = await call(await connect('2026-04-08'), name, { meta: meta(needsKey ? { 'idempotency-key': KEY } : {}), ...args });
    expect(error).toBeUndefined();
    expect(result!.structuredContent).toEqual({ id: 'chk_1' });
    expect(result!.content).toEqual([{ type: 'text', text: '{"id":"chk_1"}' }]);
    const [sent] = recorded;
    expect(sent).toMatchObject({ method, path });
    expect(sent!.body ? JSON.parse(sent!.body) : undefined).toEqual(body);
    expect(sent!.headers['ucp-agent']).toBe(`profile="${PROFILE}", version="2026-04-08"`);
    expect(sent!.headers.authorization).toBe('Bearer sk_dev_connection');
    expect(sent!.headers['request-id']).toMatch(UUID);
    const writes = method === 'PUT' || (method === 'POST' && !path.startsWith('/ucp/catalog'));
    if (needsKey) expect(sent!.headers['idempotency-key']).toBe(KEY);
    else if (writes) expect(sent!.headers['idempotency-key']).toMatch(UUID); // REST requires one, the binding does not: a fresh one
    else expect(sent!.headers['idempotency-key']).toBeUndefined();
  });

  it('keeps an id inside its path segment', async () => {
    await call(await connect('2026-04-08'), 'get_checkout', { meta: meta(), id: '../carts/x?y=1' });
    expect(recorded[0]!.path).toBe('/ucp/checkout-sessions/..%2Fcarts%2Fx%3Fy%3D1');
  });

  it.each([
    ['no meta', 'create_checkout', { checkout: {} }],
    ['no ucp-agent', 'create_checkout', { meta: {}, checkout: {} }],
    ['a profile that is not a URI', 'create_checkout', { meta: { 'ucp-agent': { profile: 'not a url' } }, checkout: {} }],
    ['a checkout that is not an object', 'create_checkout', { meta: meta(), checkout: 'three lamps' }],
    ['no id', 'get_checkout', { meta: meta() }],
    ['an id inside the checkout of an update', 'update_checkout', { meta: meta(), id: 'chk_1', checkout: { id: 'chk_2' } }],
    ['complete without idempotency-key', 'complete_checkout', { meta: meta(), id: 'chk_1', checkout: {} }],
    ['an idempotency-key that is not a UUID', 'cancel_checkout', { meta: meta({ 'idempotency-key': 'abc' }), id: 'chk_1' }],
    ['an unknown tool', 'create_checkout_session', { meta: meta() }],
  ])('refuses %s with -32602 and calls nothing', async (_case, name, args) => {
    const { error } = await call(await connect('2026-04-08'), name, args);
    expect(error?.code).toBe(ErrorCode.InvalidParams);
    expect(recorded).toEqual([]);
  });

  it('returns a business outcome (ucp.status "error" with messages) as the result', async () => {
    const outcome = { ucp: { version: '2026-04-08', status: 'error' }, messages: [{ type: 'error', code: 'out_of_stock', content: 'All items are out of stock', severity: 'unrecoverable' }] };
    answer = { status: 409, body: outcome };
    const { result } = await call(await connect('2026-04-08'), 'create_checkout', { meta: meta(), checkout: {} });
    expect(result!.structuredContent).toEqual(outcome);
  });

  it.each([
    [422, { code: 'version_unsupported', content: 'Version 2030-01-01 is not supported' }, {}, -32001, {}],
    [424, { code: 'profile_unreachable', content: 'Unable to fetch agent profile' }, {}, -32001, {}],
    [401, { code: 'signature_invalid', content: 'Signature verification failed' }, {}, -32000, {}],
    [409, { code: 'idempotency_conflict', content: 'Idempotency-Key reused with another body' }, {}, -32000, {}],
    [429, { code: 'rate_limit_exceeded', content: 'Slow down' }, { 'retry-after': '60' }, -32000, { retry_after: 60 }],
    [503, { code: 'service_unavailable', content: 'Retry shortly' }, { 'retry-after': '5' }, -32000, { retry_after: 5 }],
    [500, { code: 'internal_error', content: 'Internal error' }, {}, -32603, {}],
  ])('answers a %i as JSON-RPC error code per overview.md', async (status, body, headers, code, extra) => {
    answer = { status, body, headers };
    const { error } = await call(await connect('2026-04-08'), 'get_checkout', { meta: meta(), id: 'chk_1' });
    expect(error?.code).toBe(code);
    expect(error?.data).toEqual({ ...body, ...extra });
    expect(error?.message).toBe(`MCP error ${code}: ${body.content}`);
  });
});

describe('UCP 2026-01-11 tools (openrpc.json)', () => {
  const profileMeta = { ucp: { profile: PROFILE } };

  it('lists the 5 checkout tools with their own arguments', async () => {
    const { tools } = await (await connect('2026-01-11')).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['create_checkout', 'get_checkout', 'update_checkout', 'complete_checkout', 'cancel_checkout']);
    const complete = tools.find((tool) => tool.name === 'complete_checkout')!;
    expect(complete.inputSchema.required).toEqual(['id', 'idempotency_key']);
    expect(Object.keys(complete.inputSchema.properties!)).toEqual(['id', 'payment', 'idempotency_key']);
  });

  it('takes the profile from _meta.ucp.profile, the key from idempotency_key, and completes with the selected instrument as payment_data', async () => {
    const client = await connect('2026-01-11');
    await call(client, 'create_checkout', { checkout: { currency: 'USD' } }, profileMeta);
    const card = { id: 'instr_2', handler_id: 'mock_payment_handler', type: 'card', brand: 'visa', last_digits: '4242' };
    await call(client, 'complete_checkout', { id: 'chk_1', payment: { selected_instrument_id: 'instr_2', instruments: [{ ...card, id: 'instr_1' }, card] }, idempotency_key: KEY }, profileMeta);
    await call(client, 'cancel_checkout', { id: 'chk_1', idempotency_key: KEY }, profileMeta);
    expect(recorded.map(({ method, path, body }) => [method, path, body ? JSON.parse(body) : undefined])).toEqual([
      ['POST', '/ucp/checkout-sessions', { currency: 'USD' }],
      ['POST', '/ucp/checkout-sessions/chk_1/complete', { payment_data: card }], // the selected instrument, as payment_data.json
      ['POST', '/ucp/checkout-sessions/chk_1/cancel', undefined],
    ]);
    for (const sent of recorded) expect(sent.headers['ucp-agent']).toBe(`profile="${PROFILE}", version="2026-01-11"`);
    expect(recorded.map((sent) => sent.headers['idempotency-key'])).toEqual([expect.stringMatching(UUID), KEY, KEY]);
  });

  it('refuses a call without _meta.ucp.profile with -32602 and calls nothing', async () => {
    const { error } = await call(await connect('2026-01-11'), 'get_checkout', { id: 'chk_1' });
    expect(error?.code).toBe(ErrorCode.InvalidParams);
    expect(error?.data).toMatchObject({ messages: [{ code: 'invalid_profile_url' }] });
    expect(recorded).toEqual([]);
  });

  it('answers a refusal as a JSON-RPC error with the UCP body in error.data', async () => {
    const refusal = { status: 'requires_escalation', messages: [{ type: 'error', code: 'not_found', content: 'No such checkout', severity: 'requires_buyer_input' }] };
    answer = { status: 404, body: refusal };
    const { error } = await call(await connect('2026-01-11'), 'get_checkout', { id: 'chk_x' }, profileMeta);
    expect(error?.code).toBe(-32000);
    expect(error?.data).toEqual(refusal);
  });
});
