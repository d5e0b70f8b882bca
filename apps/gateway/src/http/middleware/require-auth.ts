import type { Request, RequestHandler } from 'express';
import type { GatewayEnv } from '../../config/config.js';
import type { KeyService } from '../../auth/key-service.js';
import { hasScopes } from '../../auth/scopes.js';
import { AuthenticationError, AuthorizationError, InvalidRequestError, RateLimitError } from '../../kernel/errors.js';
import { metricsOf } from '../metrics.js';
import type { AuthFailureLimiter } from '../../rate-limit/auth-failure-limiter.js';

export interface RequireAuthOptions {
  keys: KeyService;
  env: GatewayEnv;
  /** Accept `Authorization: Basic base64(KEY:)` (default true). */
  basicAuth?: boolean;
  /** Failed authentications per client address: past its limit, 429 before any database read. */
  failures?: AuthFailureLimiter;
  /** The header that may carry the key by itself (default `X-ACP-API-Key`; UCP's is `X-API-Key`). */
  keyHeader?: string;
}

/** The key a request presents: its key header (X-ACP-API-Key), Bearer, or Basic with the key as user name. */
function presentedKey(req: Request, basicAuth: boolean, keyHeader: string): string {
  const header = req.get(keyHeader)?.trim();
  const authorization = req.get('authorization')?.trim();
  let fromAuthorization: string | undefined;
  if (authorization) {
    const [scheme = '', credentials = ''] = authorization.split(/\s+/, 2);
    if (/^bearer$/i.test(scheme)) fromAuthorization = credentials;
    else if (/^basic$/i.test(scheme)) {
      if (!basicAuth) throw new AuthenticationError(`Basic authentication is disabled on this gateway; send ${keyHeader} or a Bearer token`);
      const decoded = Buffer.from(credentials, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon === -1) throw new AuthenticationError('Malformed Basic credentials: expected base64 of "KEY:"');
      if (colon !== decoded.length - 1) throw new AuthenticationError('Basic credentials carry the API key as user name and an empty password: base64 of "KEY:"');
      fromAuthorization = decoded.slice(0, colon);
    } else throw new AuthenticationError(`Unsupported Authorization scheme ${JSON.stringify(scheme)}; use Bearer or Basic`);
    if (!fromAuthorization) throw new AuthenticationError('Malformed Authorization header: no key');
  }
  if (header && fromAuthorization && header !== fromAuthorization) {
    throw new AuthenticationError(`${keyHeader} and Authorization carry different keys`);
  }
  const key = header || fromAuthorization;
  if (!key) throw new AuthenticationError(`No API key: send ${keyHeader}, Authorization: Bearer KEY${basicAuth ? ', or Basic auth with the key as user name' : ''}`);
  return key;
}

/**
 * Authenticates the request's API key (401 when it cannot): `req.ctx.principal`. Rate limits
 * come next, so that every authenticated request counts, refused ones included; then authorize().
 *
 * A valid key is never refused because of others' failures. While every key is held in memory
 * (KeyService.answersFromMemory: the normal state of a serving process) a key is accepted or
 * refused without any database read, so a flood of random keys costs no query; an address past
 * its budget of failed authentications (`failures`) gets 429 for its unknown keys instead of 401,
 * and its valid keys still pass. When keys must be read from the database (the directory is not
 * listening), an address past its budget is refused with 429 before the read — unless it presents a
 * key this process knows to be valid.
 *
 *   app.use(authenticate({ keys, env: 'development', failures }));
 */
export function authenticate(options: RequireAuthOptions): RequestHandler {
  const basicAuth = options.basicAuth ?? true;
  const { keys, env, failures } = options;
  const keyHeader = options.keyHeader ?? 'X-ACP-API-Key';
  const refuse = (req: Request, wait: number) => {
    metricsOf(req)?.rateLimitRefusals.inc({ window: 'auth_failures' });
    return new RateLimitError(`Too many failed authentications from this address; retry after ${wait} s`, wait);
  };
  return async (req, _res, next) => {
    const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    let presented: string | undefined;
    let malformed: unknown;
    try {
      presented = presentedKey(req, basicAuth, keyHeader);
    } catch (error) {
      malformed = error;
    }
    const known = presented === undefined ? undefined : keys.remembered(presented, env);
    if (known) {
      req.ctx.principal = known;
      return next();
    }
    const fromMemory = keys.answersFromMemory;
    if (!fromMemory) {
      const wait = await failures?.retryAfter(client);
      if (wait !== undefined) throw refuse(req, wait);
    }
    try {
      if (malformed !== undefined) throw malformed;
      req.ctx.principal = await keys.authenticate(presented!, env);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      const wait = await failures?.failed(client);
      throw fromMemory && wait !== undefined ? refuse(req, wait) : error;
    }
    next();
  };
}

/**
 * Checks the operation's scopes (403) and picks the merchant the request acts for:
 * `Merchant-Id` when the key serves several (403 for one it does not serve).
 *
 *   app.use(authorize());
 */
export function authorize(): RequestHandler {
  return (req, _res, next) => {
    const principal = req.ctx.principal!;
    const required = req.ctx.operation?.scopes ?? [];
    if (!hasScopes(principal.scopes, required)) {
      throw new AuthorizationError(`This key lacks the scope ${required.filter((s) => !principal.scopes.includes(s)).join(', ')} needed for ${req.ctx.operation?.operationId}`);
    }
    const asked = req.get('merchant-id')?.trim();
    let merchantId: string;
    if (asked) {
      if (!principal.merchantIds.includes(asked)) throw new AuthorizationError(`This key has no access to merchant ${JSON.stringify(asked)}`);
      merchantId = asked;
    } else if (principal.merchantIds.length === 1) {
      merchantId = principal.merchantIds[0]!;
    } else {
      throw new InvalidRequestError(`This key serves several merchants (${principal.merchantIds.join(', ')}); name one in the Merchant-Id header`, 'Merchant-Id');
    }
    req.ctx.merchantId = merchantId;
    next();
  };
}
