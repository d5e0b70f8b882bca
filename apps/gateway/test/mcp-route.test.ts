/**
 * The /mcp route in a small app of its own: a stub key directory and, on the same server, a stub
 * UCP REST operation that answers what the case needs — so the loopback dispatch (to the
 * address the MCP request arrived at) and the HTTP status of a UCP protocol error
 * (2026-04-08 overview.md: "servers MUST return the corresponding HTTP status code") are seen
 * on the wire.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyService } from '../src/auth/key-service.js';
import type { Principal } from '../src/auth/principal.js';
import { AuthenticationError } from '../src/kernel/errors.js';
import { requestId } from '../src/http/middleware/request-id.js';
import { acpTools } from '../src/mcp/acp-tools.js';
import { mcpRoute } from '../src/mcp/mcp-route.js';
import { mcpServer } from '../src/mcp/mcp-server.js';

const KEY = 'sk_dev_route_test';
const principal: Principal = { keyId: 'key_1', environment: 'development', merchantIds: ['shop'], scopes: ['*'], tier: 'enterprise', rpm: null, rpd: null, signingSecret: null };
const keys = {
  answersFromMemory: true,
  remembered: (presented: string) => (presented === KEY ? principal : undefined),
  authenticate: () => Promise.reject(new AuthenticationError('Invalid API key: no such key')),
} as unknown as KeyService;

let server: Server;
let url: string;
const seen: { path: string; authorization?: string }[] = [];
let answer: { status: number; body: unknown; headers?: Record<string, string> };

beforeAll(async () => {
  const app = express();
  app.use(requestId());
  app.use(mcpRoute({ keys, env: 'development', ucpVersion: '2026-04-08' }));
  app.use('/ucp', (req, res) => {
    seen.push({ path: req.originalUrl, authorization: req.get('authorization') });
    res.status(answer.status).set(answer.headers ?? {}).json(answer.body);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function rpc(body: unknown) {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const getCheckout = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_checkout', arguments: { meta: { 'ucp-agent': { profile: 'https://platform.example/p.json' } }, id: 'chk_1' } } });

describe('POST /mcp', () => {
  it('answers a REST call that gets no answer as -32603, never with the socket error', async () => {
    const server = mcpServer({ tools: acpTools(), connection: {}, target: { host: '127.0.0.1', port: 9 }, version: 'test', send: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9')) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(clientSide);
    const failure = await client.callTool({ name: 'get_checkout_session', arguments: { meta: { api_version: '2026-04-17' }, id: 'cs_1' } }).catch((error: unknown) => error as { code: number; message: string });
    expect(failure).toMatchObject({ code: -32603 });
    expect((failure as { message: string }).message).not.toContain('ECONNREFUSED');
    await client.close();
  });

  it("dispatches a tool call to this same server's REST path with the connection's key", async () => {
    answer = { status: 200, body: { id: 'chk_1', status: 'incomplete' } };
    const reply = await rpc(getCheckout(1));
    expect(reply.status).toBe(200);
    expect(reply.body.result.structuredContent).toEqual({ id: 'chk_1', status: 'incomplete' });
    expect(seen.at(-1)).toEqual({ path: '/ucp/checkout-sessions/chk_1', authorization: `Bearer ${KEY}` });
  });

  it('answers a UCP protocol error with its HTTP status beside the JSON-RPC error', async () => {
    answer = { status: 429, body: { code: 'rate_limit_exceeded', content: 'Slow down' }, headers: { 'Retry-After': '30' } };
    const reply = await rpc(getCheckout(2));
    expect(reply.status).toBe(429);
    expect(reply.body.error).toEqual({ code: -32000, message: 'Slow down', data: { code: 'rate_limit_exceeded', content: 'Slow down', retry_after: 30 } });
  });

  it('keeps 200 for a business outcome and for an invalid envelope', async () => {
    answer = { status: 404, body: { ucp: { version: '2026-04-08', status: 'error' }, messages: [{ type: 'error', code: 'not_found', content: 'No such checkout', severity: 'unrecoverable' }] } };
    expect((await rpc(getCheckout(3))).status).toBe(200);
    const invalid = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_checkout', arguments: { id: 'chk_1' } } });
    expect(invalid.status).toBe(200);
    expect(invalid.body.error.code).toBe(-32602);
  });
});
