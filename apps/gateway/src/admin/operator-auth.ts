import type { Request, RequestHandler } from 'express';
import type { Principal } from '../auth/principal.js';
import { AuthenticationError, AuthorizationError, RateLimitError } from '../kernel/errors.js';
import { metricsOf } from '../http/metrics.js';
import type { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter.js';
import { SerialQueues } from '../kernel/concurrency/serial-queues.js';
import { readCookie } from '../http/cookies.js';
import { SESSION_COOKIE, type ConsoleSessions } from './console-sessions.js';
import { adminContext } from './operator-context.js';
import type { Operator } from './operator.js';
import type { OperatorService } from './operator-service.js';
import { requireSameOrigin, type SameOriginOptions } from './same-origin.js';

const READS = new Set(['GET', 'HEAD']);

/** Writes a read-only credential may make: signing in to the console and out. */
const ANY_ACCESS = new Set(['createConsoleSession', 'deleteConsoleSession']);

/** The header the console sends with every write it makes on its session cookie (a cross-site form cannot). */
export const CONSOLE_REQUEST_HEADER = 'x-console-request';

type Presented = { kind: 'credential'; token: string } | { kind: 'session'; token: string };

/**
 * The operator's token from `Authorization: Bearer op_…`, else the console's session cookie; a
 * merchant API key's headers are refused by name.
 */
function presented(req: Request): Presented {
  if (req.get('x-acp-api-key') || req.get('x-api-key')) throw new AuthenticationError('The admin API takes an operator credential (Authorization: Bearer op_…), not a merchant API key');
  const authorization = req.get('authorization')?.trim();
  if (!authorization) {
    const session = readCookie(req, SESSION_COOKIE);
    if (session) {
      if (!READS.has(req.method) && req.get(CONSOLE_REQUEST_HEADER) !== '1') throw new AuthenticationError(`A write on a console session must carry the header ${CONSOLE_REQUEST_HEADER}: 1`);
      return { kind: 'session', token: session };
    }
    throw new AuthenticationError('No operator credential: send Authorization: Bearer op_… (create one with `gateway operators create`), or sign in to the console');
  }
  const [scheme = '', token = ''] = authorization.split(/\s+/, 2);
  if (!/^bearer$/i.test(scheme) || !token) throw new AuthenticationError('Send the operator credential as Authorization: Bearer op_…');
  return { kind: 'credential', token };
}

/** The operator as the rate limiter counts it: the production tier's budget, under the operator's id. */
function principalOf(operator: Operator): Principal {
  return { keyId: operator.id, environment: 'production', merchantIds: operator.merchantIds, scopes: [], tier: 'production', rpm: null, rpd: null, signingSecret: null };
}

/**
 * Authenticates the operator credential or console session (401 when it cannot). A valid one is
 * never refused because of others' failures: an address past its budget of failed
 * authentications gets 429 for what it presents that is not valid, and its valid credentials —
 * even one created a moment ago, and console sessions — still pass. What such an address presents
 * is checked one request at a time in this process (`blockedLane`), so a flood of made-up tokens
 * costs at most one indexed read at a time; a token of the wrong form costs none (operator-service.ts).
 *
 *   guard: [authenticateOperator(operators, sessions, failures), rateLimit(stores, logger), requireAccess(), …]
 */
export function authenticateOperator(operators: OperatorService, sessions: ConsoleSessions, failures?: AuthFailureLimiter, origins: SameOriginOptions = {}): RequestHandler {
  const blockedLane = new SerialQueues();
  const refuse = (req: Request, wait: number) => {
    metricsOf(req)?.rateLimitRefusals.inc({ window: 'auth_failures' });
    return new RateLimitError(`Too many failed authentications from this address; retry after ${wait} s`, wait);
  };
  const identify = async (req: Request): Promise<void> => {
    const credential = presented(req);
    const context = adminContext(req);
    if (credential.kind === 'credential') context.operator = await operators.authenticate(credential.token);
    else {
      if (!READS.has(req.method)) requireSameOrigin(req, origins); // a cookie write from another origin: 403 (CSRF)
      ({ operator: context.operator, expiresAt: context.sessionExpiresAt } = await sessions.authenticate(credential.token));
    }
  };
  return async (req, _res, next) => {
    const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const blocked = (await failures?.retryAfter(client)) !== undefined;
    try {
      await (blocked ? blockedLane.run('blocked', () => identify(req)) : identify(req));
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      const wait = await failures?.failed(client);
      throw wait === undefined ? error : refuse(req, wait);
    }
    req.ctx.principal = principalOf(adminContext(req).operator!);
    next();
  };
}

/**
 * A read-only credential may only read (403 on a write); a merchant named in the path must be one
 * the credential serves (403).
 */
export function requireAccess(): RequestHandler {
  return (req, _res, next) => {
    const operator = adminContext(req).operator!;
    if (!READS.has(req.method) && operator.access !== 'full' && !ANY_ACCESS.has(req.ctx.operation?.operationId ?? '')) {
      throw new AuthorizationError(`This operator credential is read-only; ${req.ctx.operation?.operationId ?? 'a write'} needs one created with --access full`);
    }
    const merchantId = req.ctx.pathParams?.merchant_id;
    if (merchantId !== undefined && !operator.allMerchants && !operator.merchantIds.includes(merchantId)) {
      throw new AuthorizationError(`This operator credential has no access to merchant ${JSON.stringify(merchantId)}`, 'merchant_id');
    }
    next();
  };
}
