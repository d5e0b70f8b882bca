import type { Request, RequestHandler } from 'express';
import type { Principal } from '../auth/principal.js';
import { AuthenticationError, AuthorizationError, RateLimitError } from '../errors.js';
import { metricsOf } from '../ops/metrics.js';
import type { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter.js';
import { adminContext } from './operator-context.js';
import type { Operator } from './operator.js';
import type { OperatorService } from './operator-service.js';

/** The operator's token from `Authorization: Bearer op_…`; a merchant API key's headers are refused by name. */
function presentedToken(req: Request): string {
  if (req.get('x-acp-api-key') || req.get('x-api-key')) throw new AuthenticationError('The admin API takes an operator credential (Authorization: Bearer op_…), not a merchant API key');
  const authorization = req.get('authorization')?.trim();
  if (!authorization) throw new AuthenticationError('No operator credential: send Authorization: Bearer op_… (create one with `gateway operators create`)');
  const [scheme = '', token = ''] = authorization.split(/\s+/, 2);
  if (!/^bearer$/i.test(scheme) || !token) throw new AuthenticationError('Send the operator credential as Authorization: Bearer op_…');
  return token;
}

/** The operator as the rate limiter counts it: the production tier's budget, under the operator's id. */
function principalOf(operator: Operator): Principal {
  return { keyId: operator.id, environment: 'production', merchantIds: operator.merchantIds, scopes: [], tier: 'production', rpm: null, rpd: null, signingSecret: null };
}

/**
 * Authenticates the operator credential (401 when it cannot); an address past its budget of
 * failed authentications gets 429 before any database read, as on the merchant API.
 *
 *   guard: [authenticateOperator(operators, failures), rateLimit(stores, logger), requireAccess(), …]
 */
export function authenticateOperator(operators: OperatorService, failures?: AuthFailureLimiter): RequestHandler {
  return async (req, _res, next) => {
    const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const wait = await failures?.retryAfter(client);
    if (wait !== undefined) {
      metricsOf(req)?.rateLimitRefusals.inc({ window: 'auth_failures' });
      throw new RateLimitError(`Too many failed authentications from this address; retry after ${wait} s`, wait);
    }
    try {
      const operator = await operators.authenticate(presentedToken(req));
      adminContext(req).operator = operator;
      req.ctx.principal = principalOf(operator);
    } catch (error) {
      if (error instanceof AuthenticationError) await failures?.failed(client);
      throw error;
    }
    next();
  };
}

const READS = new Set(['GET', 'HEAD']);

/**
 * A read-only credential may only read (403 on a write); a merchant named in the path must be one
 * the credential serves (403).
 */
export function requireAccess(): RequestHandler {
  return (req, _res, next) => {
    const operator = adminContext(req).operator!;
    if (!READS.has(req.method) && operator.access !== 'full') {
      throw new AuthorizationError(`This operator credential is read-only; ${req.ctx.operation?.operationId ?? 'a write'} needs one created with --access full`);
    }
    const merchantId = req.ctx.pathParams?.merchant_id;
    if (merchantId !== undefined && !operator.allMerchants && !operator.merchantIds.includes(merchantId)) {
      throw new AuthorizationError(`This operator credential has no access to merchant ${JSON.stringify(merchantId)}`, 'merchant_id');
    }
    next();
  };
}
