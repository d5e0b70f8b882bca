/**
 * A tool of the MCP endpoint: its definition (what tools/list shows) and the two halves of the
 * transport — its arguments as one REST call, and that call's answer as the tool's result or the
 * protocol binding's JSON-RPC error. A tool never reaches a service: the REST edge does the work.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RestCall, RestReply } from './loopback.js';

/** What a tool call carries besides its arguments. */
export interface CallContext {
  /** `params._meta` of the tools/call request (UCP 2026-01-11 carries the agent's profile there). */
  requestMeta: Record<string, unknown> | undefined;
}

export interface GatewayTool {
  definition: Tool;
  /** The REST call these arguments stand for; throws RpcError (-32602) for a malformed envelope. */
  toRest(args: Record<string, unknown>, context: CallContext): RestCall;
  /** The REST answer as the tool's result; throws the binding's RpcError for a protocol error. */
  fromRest(reply: RestReply): CallToolResult;
}

/** The MCP dual output: the JSON document as `structuredContent` and as text for clients without it. */
export function jsonResult(body: unknown): CallToolResult {
  const structured = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { value: body };
  return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** A path segment from a caller's id: encoded, so an id can never reach another path. */
export const segment = (id: string): string => encodeURIComponent(id);

/**
 * A JSON-RPC error as the binding words it: `code`, `message` exactly as given, `data`. (The SDK
 * sends a thrown error's own `code`, `message` and `data`; its McpError would prefix the message
 * with "MCP error <code>: ", which the bindings' examples do not have.)
 */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** The HTTP status the MCP response should carry with it (UCP: "the HTTP status code is the primary signal"). */
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}
