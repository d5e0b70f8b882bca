/**
 * Console sign-in: an operator credential (sent once, as `Authorization: Bearer op_…`) is exchanged for a session token (`ocs_` + 32
 * base62 characters), kept by the browser in an HttpOnly, SameSite=Strict cookie scoped to
 * `/admin`, so the credential itself never stays in the page. Only the token's SHA-256 digest is
 * stored; a session ends after SESSION_HOURS, at sign-out, or as soon as its operator is revoked
 * (every request reads the operator again).
 */
import { digestsEqual, hashApiKey } from '../auth/api-key.js';
import { randomBase62 } from '../kernel/ids.js';
import { AuthenticationError } from '../kernel/errors.js';
import type { ConsoleSessionStore } from './console-session-store.js';
import type { Operator } from './operator.js';
import type { OperatorService } from './operator-service.js';

export const SESSION_COOKIE = 'cg_console';
export const SESSION_HOURS = 12;
const TOKEN_PATTERN = /^ocs_[0-9A-Za-z]{32}$/;

export interface OpenedSession {
  token: string;
  expiresAt: Date;
}

export class ConsoleSessions {
  constructor(
    private readonly store: ConsoleSessionStore,
    private readonly operators: OperatorService,
  ) {}

  /** A new session for an operator authenticated by its credential. */
  async open(operator: Operator): Promise<OpenedSession> {
    const token = `ocs_${randomBase62(32)}`;
    const expiresAt = new Date(Date.now() + SESSION_HOURS * 3600_000);
    await this.store.create({ id: `cs_${randomBase62(16)}`, tokenHash: hashApiKey(token), operatorId: operator.id, expiresAt });
    return { token, expiresAt };
  }

  /** The operator a live session belongs to. */
  async authenticate(token: string): Promise<{ operator: Operator; expiresAt: Date }> {
    if (!TOKEN_PATTERN.test(token)) throw new AuthenticationError('Invalid console session: sign in again');
    const hash = hashApiKey(token);
    const found = await this.store.findByHash(hash);
    if (!found || !digestsEqual(found.tokenHash, hash)) throw new AuthenticationError('No console session: sign in again');
    if (found.expiresAt.getTime() <= Date.now()) throw new AuthenticationError('The console session has expired: sign in again');
    const operator = await this.operators.byId(found.operatorId);
    if (!operator || operator.revokedAt) throw new AuthenticationError('The operator credential of this session has been revoked');
    return { operator, expiresAt: found.expiresAt };
  }

  async close(token: string): Promise<void> {
    if (TOKEN_PATTERN.test(token)) await this.store.remove(hashApiKey(token));
  }
}
