/**
 * `POST /mcp`: the Streamable HTTP MCP endpoint both agent-commerce protocols name (ACP's
 * discovery `transports`, UCP's business profile) — a transport over the REST edge, never a
 * second implementation. Every MCP request is authenticated first with the gateway's API keys
 * (`Authorization: Bearer sk_…`, as on REST): without a valid key, 401 and a JSON-RPC error
 * before any tool runs. Then a stateless MCP server answers it (mcp-server.ts); each tool call is
 * one REST request to this gateway with the same key, so scopes, merchants, rate limits,
 * signatures, validation and idempotency are REST's own.
 *
 * The UCP tools are those of one release: the one the MCP request's `UCP-Agent` header declares
 * (`version="2026-01-11"`) when this gateway accepts it, else UCP_VERSION's.
 *
 *   compose([..., mcpRoute({ keys, env, basicAuth, failures, ucpVersion }), ucp, serve]);
 */
import type { Request, RequestHandler, Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ACP_VERSION } from '../acp/acp-version.js';
import { KnownError } from '../kernel/errors.js';
import { authenticate, type RequireAuthOptions } from '../http/middleware/require-auth.js';
import { parseUcpAgent } from '../ucp/ucp-agent.js';
import { MCP_PATH, negotiatedVersion, type UcpVersion } from '../ucp/ucp-version.js';
import { acpTools } from './acp-tools.js';
import { loopbackTarget } from './loopback.js';
import { mcpServer } from './mcp-server.js';
import { rpcRefusal, SERVER_ERROR } from './transport-refusals.js';
import type { GatewayTool } from './tool.js';
import { ucpTools } from './ucp-tools.js';

export interface McpRouteOptions extends RequireAuthOptions {
  /** The release /.well-known/ucp describes (UCP_VERSION). */
  ucpVersion: UcpVersion;
}

/** The MCP request headers each tool call's REST request carries: the credentials, the merchant, the origin. */
const CONNECTION_HEADERS = ['authorization', 'x-acp-api-key', 'merchant-id', 'host', 'x-forwarded-host', 'x-forwarded-proto'];

function rpcError(res: Response, status: number, code: number, message: string, data?: unknown, headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(status).json({ jsonrpc: '2.0', id: null, error: { code, message, ...(data === undefined ? {} : { data }) } });
}

/** The UCP release of this MCP request's tools. */
function ucpVersionOf(req: Request, current: UcpVersion): UcpVersion {
  const header = req.get('ucp-agent');
  if (!header) return current;
  try {
    const declared = parseUcpAgent(header).version;
    return (declared && negotiatedVersion(declared, current)) || current;
  } catch {
    return current; // a malformed header here names no release; each tool call carries its own profile
  }
}

export function mcpRoute(options: McpRouteOptions): RequestHandler {
  const auth = authenticate(options);
  const acp = acpTools();
  const serverVersion = `acp-${ACP_VERSION}`;
  const answer = async (req: Request, res: Response) => {
    const version = ucpVersionOf(req, options.ucpVersion);
    const tools: GatewayTool[] = [...acp, ...ucpTools(version)];
    const connection: Record<string, string> = {};
    for (const name of CONNECTION_HEADERS) {
      const value = req.get(name);
      if (value) connection[name] = value;
    }
    // One tool call whose protocol error names an HTTP status (UCP 2026-04-08): the response carries it; a batch keeps 200.
    const calls: (number | undefined)[] = [];
    const server = mcpServer({ tools, connection, target: loopbackTarget(req), version: `${serverVersion}+ucp-${version}`, onCall: (status) => calls.push(status) });
    const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => Response;
    res.writeHead = ((status: number, ...rest: unknown[]) => writeHead(status === 200 && calls.length === 1 && calls[0] ? calls[0] : status, ...rest)) as typeof res.writeHead;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  return (req, res, next) => {
    if (req.path !== MCP_PATH) return next();
    const run = async () => {
      try {
        await new Promise<void>((resolve, reject) => {
          const result = auth(req, res, (error?: unknown) => (error ? reject(error) : resolve())) as unknown;
          if (result instanceof Promise) result.catch(reject);
        });
      } catch (error) {
        if (!(error instanceof KnownError && error.expose)) throw error;
        const refusal = rpcRefusal(error);
        return rpcError(res, refusal.status, refusal.code, refusal.message, refusal.data, refusal.headers);
      }
      if (req.method !== 'POST') {
        // Stateless: no server-initiated stream to GET, no session to DELETE.
        return rpcError(res, 405, SERVER_ERROR, `${req.method} is not allowed on ${MCP_PATH}: send JSON-RPC messages with POST`, undefined, { Allow: 'POST' });
      }
      await answer(req, res);
    };
    run().catch((error: unknown) => {
      if (res.headersSent) return;
      next(error);
    });
  };
}
