/**
 * The MCP server of one HTTP request (stateless Streamable HTTP: nothing is kept between
 * requests, so any replica answers any call). It lists the tools it was given and dispatches a
 * call as one REST request to the gateway, with the connection's credentials: the key the MCP
 * request authenticated with (Authorization / X-ACP-API-Key), Merchant-Id, and Host (so the
 * documents' URLs are the ones the agent reaches). An unknown tool is -32602, as MCP says, and so
 * are params not of MCP's shape (param-errors.ts).
 *
 *   const server = mcpServer({ tools, connection, target });
 *   await server.connect(transport);
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { dispatch, type LoopbackTarget, type RestReply } from './loopback.js';
import { readableParamErrors } from './param-errors.js';
import { RpcError, type GatewayTool } from './tool.js';

export interface McpServerOptions {
  tools: readonly GatewayTool[];
  /** Headers of the MCP request every REST call carries. */
  connection: Record<string, string>;
  target: LoopbackTarget;
  /** Sends the REST call (default: over HTTP to `target`); tests may record instead. */
  send?: (target: LoopbackTarget, call: Parameters<typeof dispatch>[1]) => Promise<RestReply>;
  version: string;
  /** Told of every tool call: the HTTP status its protocol error asks the MCP response to carry, or undefined. */
  onCall?: (httpStatus: number | undefined) => void;
}

export function mcpServer(options: McpServerOptions): Server {
  const server = new Server({ name: 'commerce-gateway', version: options.version }, { capabilities: { tools: { listChanged: false } } });
  const byName = new Map(options.tools.map((tool) => [tool.definition.name, tool]));
  const send = options.send ?? dispatch;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: options.tools.map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    let httpStatus: number | undefined;
    try {
      return await callTool(request.params);
    } catch (error) {
      if (error instanceof RpcError) httpStatus = error.httpStatus;
      throw error;
    } finally {
      options.onCall?.(httpStatus);
    }
  });
  async function callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: unknown }) {
    const tool = byName.get(params.name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(params.name)}; tools/list names the tools`);
    const call = tool.toRest(params.arguments ?? {}, { requestMeta: params._meta as Record<string, unknown> | undefined });
    const reply = await send(options.target, { ...call, headers: { ...options.connection, ...call.headers } }).catch((error: unknown) => {
      // The gateway did not answer itself (it is shutting down, say): a JSON-RPC internal error, without the socket's details.
      throw new RpcError(ErrorCode.InternalError, 'The gateway could not run this tool call; retry shortly', { cause: error instanceof Error ? error.name : 'unknown' });
    });
    return tool.fromRest(reply);
  }
  readableParamErrors(server); // params not of MCP's shape: -32602 and a sentence, not zod's issue list
  return server;
}
