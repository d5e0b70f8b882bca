/**
 * One edge for every protocol the gateway speaks over its one domain. A protocol profile says
 * what differs between two protocols; the edge runs every profile the same way:
 *
 *   before → version header → the contract's operation → guard → the operation's handler
 *
 * as one router layer (compose.ts), and answers any error thrown on the way in the profile's own
 * shape. Our API (api/api-profile.ts) and ACP (acp/acp-profile.ts) are two profiles.
 *
 * Adding a protocol is a profile: UCP is its contract (an OperationTable from its document), a
 * mapper from the domain to its wire and back, its handlers by operationId, and its error mapper;
 * MCP, a transport, is a profile whose operations are tool calls reaching the same services.
 * Authentication, rate limits, body parsing, signatures and idempotency are the shared middleware
 * of http/middleware/, listed in each profile's `guard` in the order that protocol asks for.
 *
 *   const { serve, errors } = edge([acpProfile(deps), apiProfile(deps)], logger);
 *   app.use(compose([requestId(), …, serve]));
 *   app.use(errors);
 */
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { OperationTable } from '../contract/operations.js';
import { compose } from './compose.js';
import { typedError } from './foreign-errors.js';
import { lastResort } from './last-resort.js';
import { apiVersion } from './middleware/api-version.js';
import { matchOperation } from './middleware/match-operation.js';
import { operationHandlers, type OperationHandlers } from './operation-handlers.js';

/** An error as a protocol answers it. */
export interface Problem {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** How a protocol answers errors: its status table and error shape. */
export interface ProtocolErrors {
  /** For logs: which protocol refused or failed a request. */
  name: string;
  /** Any error as this protocol's answer; undefined for an error it does not know. */
  problem(error: unknown, req: Request): Problem | undefined;
  /** The answer to an error it does not know (logged): a bug, never the caller's fault. */
  internalError: Problem;
}

export interface ProtocolProfile extends ProtocolErrors {
  /** The paths it answers; profiles are asked in order, so the last may claim every path. */
  claims(path: string): boolean;
  /** Its contract's operations: method + path → operationId and scopes. */
  operations: OperationTable;
  /** Its version header (`API-Version`): the values it speaks, oldest first, and whether a request must send one; none for a protocol that negotiates its version otherwise (UCP's `UCP-Agent`). */
  versions?: { supported: readonly string[]; required?: boolean };
  /** What it answers before a version or an operation is asked for (a discovery document), and checks on every answer. */
  before?: RequestHandler[];
  /** Between the operation and its handler: authentication, limits, body, signature, validation, idempotency. */
  guard: RequestHandler[];
  /** One per operationId of its contract, each taking the contract's request types. */
  handlers: OperationHandlers;
}

export function edge(profiles: readonly ProtocolProfile[], logger: Logger): { serve: RequestHandler; errors: ErrorRequestHandler[] } {
  const chains = profiles.map((profile) => ({
    profile,
    chain: compose([
      ...(profile.before ?? []),
      ...(profile.versions ? [apiVersion(profile.versions.supported, { required: profile.versions.required ?? false })] : []),
      matchOperation(profile.operations),
      ...profile.guard,
      operationHandlers(profile.operations.all(), profile.handlers),
    ]),
  }));
  const serve: RequestHandler = (req, res, next) => {
    const found = chains.find(({ profile }) => profile.claims(req.path));
    if (!found) return next();
    req.ctx.profile = found.profile;
    return found.chain(req, res, next);
  };
  // An error before any profile claimed the request (CORS, the ops routes) is answered by the last, which claims the rest.
  const fallback = profiles[profiles.length - 1]!;
  const errorsOf = (req: Request) => req.ctx?.profile ?? fallback;
  return { serve, errors: [problemHandler(errorsOf, logger), lastResort(errorsOf, logger)] };
}

/**
 * Writes the answer to an error as the request's protocol shapes it; logs failures (5xx) and
 * unknown errors. The libraries' own errors are the domain's first (foreign-errors.ts); whatever
 * fails while answering goes on to lastResort (last-resort.ts), never to Express's HTML page.
 */
export function problemHandler(errorsOf: (req: Request) => ProtocolErrors, logger: Logger): ErrorRequestHandler {
  return (thrown, req, res, next) => {
    if (res.headersSent) return next(thrown);
    const error = typedError(thrown, req.get('content-encoding'));
    const protocol = errorsOf(req);
    const problem = protocol.problem(error, req);
    if (!problem || problem.status >= 500) {
      const context = { requestId: req.ctx?.requestId, protocol: protocol.name, ...(problem ? { code: problem.body.code } : {}), err: error };
      if (problem) logger.warn(context, 'request failed');
      else logger.error(context, 'unhandled error');
    }
    const answer = problem ?? protocol.internalError;
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    res.status(answer.status).json(answer.body);
  };
}
