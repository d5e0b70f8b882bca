/**
 * The MCP server of one HTTP request (stateless Streamable HTTP: nothing is kept between
 * requests, so any replica answers any call). It lists the tools it was given and dispatches a
 * call as one REST request to the gateway, with the connection's credentials: the key the MCP
 * request authenticated with (Authorization / X-ACP-API-Key), Merchant-Id, and Host (so the
 * documents' URLs are the ones the agent reaches). An unknown tool is -32602, as MCP says.
 *
 *   const server = mcpServer({ tools, connection, target });
 *   await server.connect(transport);
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { dispatch, type LoopbackTarget, type RestReply } from './loopback.js';
import { RpcError, type GatewayTool } from './tool.js';

export interface McpServerOptions {
  tools: readonly GatewayTool[];
  /** Headers of the MCP request every REST call carries. */
  connection: Record<string, string>;
  target: LoopbackTarget;
  /** Sends the REST call (default: over HTTP to `target`); tests may record instead. */
  send?: (target: LoopbackTarget, call: Parameters<typeof dispatch>[1]) => Promise<RestReply>;
  version: string;
}

export function mcpServer(options: McpServerOptions): Server {
  const server = new Server({ name: 'commerce-gateway', version: options.version }, { capabilities: { tools: { listChanged: false } } });
  const byName = new Map(options.tools.map((tool) => [tool.definition.name, tool]));
  const send = options.send ?? dispatch;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: options.tools.map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(request.params.name)}; tools/list names the tools`);
    const call = tool.toRest(request.params.arguments ?? {}, { requestMeta: request.params._meta as Record<string, unknown> | undefined, requestId: extra.requestId });
    const reply = await send(options.target, { ...call, headers: { ...options.connection, ...call.headers } });
    return tool.fromRest(reply);
  });
  return server;
}
