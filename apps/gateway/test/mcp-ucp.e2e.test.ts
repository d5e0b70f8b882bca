/**
 * UCP's tools at a real gateway's /mcp with the official MCP client: the release's tool set (the
 * MCP request's `UCP-Agent` version when this gateway accepts it, else UCP_VERSION's) beside
 * ACP's; a malformed envelope refused with -32602 and nothing sent; a call reaching the UCP REST
 * edge with the connection's key and answered in the binding's error form, never a 500.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpAgent } from './support/mcp.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const PROFILE = 'https://platform.example/profiles/shopping-agent.json';
const ACP_TOOLS = ['cancel_checkout_session', 'complete_checkout_session', 'create_checkout_session', 'get_checkout_session', 'update_checkout_session'];
let gateway: TestGateway;
let key: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  key = await gateway.createKey({ merchantIds: ['shop'] });
});

afterAll(() => gateway?.close());

describe('UCP over MCP', () => {
  it('is reached at the MCP endpoint both discovery documents name', async () => {
    const acp = (await (await fetch(`${gateway.url}/.well-known/acp.json`)).json()) as { transports: string[] };
    expect(acp.transports).toEqual(['rest', 'mcp']);
    for (const path of ['/.well-known/ucp', '/.well-known/ucp/2026-01-11']) {
      const profile = (await (await fetch(`${gateway.url}${path}`)).json()) as { ucp: { services: Record<string, unknown> } };
      const service = profile.ucp.services['dev.ucp.shopping'] as { transport: string; endpoint: string }[] | { mcp: { endpoint: string } };
      const endpoint = Array.isArray(service) ? service.find((binding) => binding.transport === 'mcp')!.endpoint : service.mcp.endpoint;
      expect(endpoint).toBe(`${gateway.url}/mcp`);
      const agent = await mcpAgent(endpoint.slice(0, -'/mcp'.length), key);
      expect((await agent.client.listTools()).tools.length).toBeGreaterThan(5);
      await agent.close();
    }
  });

  it("lists UCP_VERSION's tools (2026-04-08: 13) beside ACP's five", async () => {
    const agent = await mcpAgent(gateway.url, key);
    try {
      const names = (await agent.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toHaveLength(18);
      expect(names).toEqual(expect.arrayContaining([...ACP_TOOLS, 'create_checkout', 'search_catalog', 'lookup_catalog', 'get_product', 'create_cart', 'get_order']));
    } finally {
      await agent.close();
    }
  });

  it('lists the 2026-01-11 tools to a platform whose UCP-Agent declares that release', async () => {
    const agent = await mcpAgent(gateway.url, key, { 'ucp-agent': `profile="${PROFILE}", version="2026-01-11"` });
    try {
      const { tools } = await agent.client.listTools();
      const ucp = tools.filter((tool) => !ACP_TOOLS.includes(tool.name));
      expect(ucp.map((tool) => tool.name)).toEqual(['create_checkout', 'get_checkout', 'update_checkout', 'complete_checkout', 'cancel_checkout']);
      expect(ucp.find((tool) => tool.name === 'complete_checkout')!.inputSchema.required).toEqual(['id', 'idempotency_key']);
    } finally {
      await agent.close();
    }
  });

  it('refuses a malformed meta with -32602 before any REST call', async () => {
    const agent = await mcpAgent(gateway.url, key);
    try {
      const before = await gateway.db.prisma.checkoutSession.count();
      for (const args of [{ checkout: {} }, { meta: { 'ucp-agent': {} }, checkout: {} }, { meta: { 'ucp-agent': { profile: PROFILE } }, checkout: 7 }]) {
        const { error } = await agent.call('create_checkout', args);
        expect(error?.code).toBe(ErrorCode.InvalidParams);
      }
      const { error } = await agent.call('complete_checkout', { meta: { 'ucp-agent': { profile: PROFILE } }, id: 'chk_1', checkout: {} });
      expect(error?.code).toBe(ErrorCode.InvalidParams);
      expect(await gateway.db.prisma.checkoutSession.count()).toBe(before);
    } finally {
      await agent.close();
    }
  });

  it("reaches the UCP REST edge and answers an unknown order in the binding's error form, never -32603", async () => {
    const agent = await mcpAgent(gateway.url, key);
    try {
      const { result, error } = await agent.call('get_order', { meta: { 'ucp-agent': { profile: PROFILE } }, id: 'ord_unknown' });
      if (error) {
        expect([-32000, -32001]).toContain(error.code);
        expect(error.data).toMatchObject({ code: expect.any(String), content: expect.any(String) });
      }
      else expect(result!.structuredContent).toMatchObject({ ucp: { status: 'error' } });
    } finally {
      await agent.close();
    }
  });
});
