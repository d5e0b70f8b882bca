/**
 * A UCP REST answer as the release's MCP binding words it (overview.md "Error Handling",
 * checkout-mcp.md): a 2xx body, and where the release says so (2026-04-08) a business outcome
 * (`ucp.status: "error"` with `messages`), are the result (`structuredContent` + text); negotiation
 * failures are JSON-RPC -32001, a 5xx -32603 (503: -32000), every other refusal -32000 — the REST
 * body in `error.data` (with `retry_after` for 429 and 503). Where the release says so (2026-04-08)
 * a protocol error's HTTP status (401, 403, 409, 429, 500, 503) is also the MCP response's own
 * ("servers MUST return the corresponding HTTP status code alongside the JSON-RPC error").
 *
 *   return fromUcpRest(releaseOf(version), reply); // or throws RpcError
 */
import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Release } from '../ucp/releases/release.js';
import type { RestReply } from './loopback.js';
import { jsonResult, RpcError } from './tool.js';

type Json = Record<string, unknown>;

const NEGOTIATION_CODES = new Set(['invalid_profile_url', 'profile_unreachable', 'profile_malformed', 'version_unsupported', 'capabilities_incompatible']);
/** overview.md "Protocol Errors": the statuses an MCP response carries as its own. */
const PROTOCOL_STATUSES = new Set([401, 403, 409, 429, 500, 503]);

function messageOf(body: Json | undefined, status: number): string {
  if (typeof body?.content === 'string') return body.content;
  const first = Array.isArray(body?.messages) ? (body.messages[0] as Json | undefined) : undefined;
  return typeof first?.content === 'string' ? first.content : `The UCP operation answered ${status}`;
}

export function fromUcpRest(release: Release, reply: RestReply): CallToolResult {
  const body = reply.body && typeof reply.body === 'object' ? (reply.body as Json) : undefined;
  if (reply.status >= 200 && reply.status < 300) return jsonResult(reply.body);
  const outcome = release.mcp.outcomesAreResults && body && Array.isArray(body.messages) && (body.ucp as Json | undefined)?.status === 'error';
  if (outcome) return jsonResult(body);
  const code = typeof body?.code === 'string' ? body.code : ((Array.isArray(body?.messages) ? (body.messages[0] as Json | undefined) : undefined)?.code as string | undefined);
  const retry = Number(reply.headers['retry-after']);
  const data = { ...(body ?? {}), ...((reply.status === 429 || reply.status === 503) && Number.isFinite(retry) ? { retry_after: retry } : {}) };
  const rpcCode = code && NEGOTIATION_CODES.has(code) ? -32001 : reply.status >= 500 && reply.status !== 503 ? ErrorCode.InternalError : -32000;
  // 2026-04-08 overview.md: over Streamable HTTP, a protocol error's HTTP status goes with the JSON-RPC error.
  const protocolStatus = release.mcp.protocolStatus && PROTOCOL_STATUSES.has(reply.status) ? reply.status : undefined;
  throw new RpcError(rpcCode, messageOf(body, reply.status), data, protocolStatus);
}
