/**
 * An MCP agent for tests: the official MCP client SDK (`Client` + `StreamableHTTPClientTransport`)
 * connected to a gateway's `/mcp` with an API key as bearer token, and helpers to read a tool
 * call's outcome — its result, or the JSON-RPC error the binding prescribes.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface McpAgent {
  client: Client;
  /** Calls a tool; the result, or the McpError it was refused with. */
  call(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<{ result?: CallToolResult & Record<string, unknown>; error?: McpError }>;
  close(): Promise<void>;
}

export async function mcpAgent(baseUrl: string, key: string | undefined, headers: Record<string, string> = {}): Promise<McpAgent> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } },
  });
  const client = new Client({ name: 'gateway-test-agent', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name, args, meta) {
      try {
        const result = (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult & Record<string, unknown>;
        return { result };
      } catch (error) {
        if (error instanceof McpError) return { error };
        throw error;
      }
    },
    close: () => client.close(),
  };
}

/** The JSON text copy of a result must say what `structuredContent` says. */
export function textOf(result: CallToolResult): unknown {
  const first = result.content[0];
  return first && first.type === 'text' ? JSON.parse(first.text) : undefined;
}
