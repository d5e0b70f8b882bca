/**
 * JSON-RPC requests whose params are not of the shape MCP defines (`tools/call` with a numeric
 * `name`, `arguments` that are a string, an `initialize` without `capabilities`) answered as
 * JSON-RPC -32602 (Invalid params) with one readable sentence — `tools/call: params.name must be
 * a string, not a number` — instead of the SDK's -32603 carrying zod's issue list as its message.
 *
 * The SDK parses a request's params inside the handler it registers for the method (Protocol's
 * setRequestHandler), before ours runs; so each registered handler is wrapped once the server has
 * them all. If a release of the SDK keeps them elsewhere this throws at start-up, and
 * test/mcp-hardening.e2e.test.ts says what it broke.
 *
 *   const server = new Server(...); server.setRequestHandler(...);
 *   readableParamErrors(server);
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from './tool.js';

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

interface Issue {
  code?: string;
  path?: (string | number)[];
  message?: string;
  expected?: string;
}

const article = (noun: string): string => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** One issue as the end of a sentence that begins with its path. */
function describe(issue: Issue): string {
  if (issue.code === 'invalid_type' && issue.expected) {
    const received = /received (\w+)/.exec(issue.message ?? '')?.[1];
    const expected = issue.expected === 'record' ? 'object' : issue.expected;
    return received === 'undefined' ? `is required (${article(expected)})` : `must be ${article(expected)}${received ? `, not ${article(received)}` : ''}`;
  }
  const message = (issue.message ?? 'is invalid').replace(/^Invalid input: /, '');
  return `is invalid: ${message}`;
}

/** zod's error (any version: a ZodError carries `issues`) as the -32602 a caller can read; anything else unchanged. */
export function readableParamError(method: string, error: unknown): unknown {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (!(error instanceof Error) || !Array.isArray(issues) || issues.length === 0) return error;
  const first = issues[0] as Issue;
  const path = (first.path ?? []).join('.') || 'params';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return new RpcError(ErrorCode.InvalidParams, `${method}: ${path} ${describe(first)}${more}`);
}

export function readableParamErrors(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('The MCP SDK keeps no _requestHandlers map: readableParamErrors cannot wrap its handlers');
  for (const [method, handler] of handlers as Map<string, Handler>) {
    handlers.set(method, async (request: unknown, extra: unknown) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        throw readableParamError(method, error);
      }
    });
  }
}
