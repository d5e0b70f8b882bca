/**
 * MCP's factory for the refusals of its transport, before any tool runs (an API key that is
 * missing or wrong, a scope, a rate limit): our errors meant for the caller as a JSON-RPC error
 * response with the HTTP status the error suggests — `-32000` (a server error the implementation
 * defines) whose `data` carries the gateway's `code`, `message` and `retry_after`, with the error's
 * headers (`WWW-Authenticate: Bearer realm="mcp"` on 401, `Retry-After`). A tool's own refusals
 * are its REST answer, in its protocol's words (acp-tools.ts, ucp-answer.ts), not these.
 */
import { type KnownError, retryHeaders } from '../kernel/errors.js';

/** JSON-RPC's implementation-defined server error. */
export const SERVER_ERROR = -32000;

const TITLES: Readonly<Record<number, string>> = { 401: 'Unauthorized', 403: 'Forbidden', 429: 'Rate limit exceeded' };

export interface RpcRefusal {
  status: number;
  code: number;
  message: string;
  data: { code: string; message: string; retry_after?: number };
  headers: Record<string, string>;
}

export function rpcRefusal(error: KnownError): RpcRefusal {
  const { status } = error;
  const headers = { ...retryHeaders(error), ...(status === 401 ? { 'WWW-Authenticate': 'Bearer realm="mcp"' } : {}) };
  const retryAfter = error.retryAfter === undefined ? {} : { retry_after: error.retryAfter };
  return { status, code: SERVER_ERROR, message: TITLES[status] ?? error.message, data: { code: error.code, message: error.message, ...retryAfter }, headers };
}
