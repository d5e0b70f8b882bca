/**
 * Operator credentials: created, listed and revoked by `gateway operators …`, presented to the
 * admin API as `Authorization: Bearer op_…`. Every authentication reads the credential's digest
 * from the database (one indexed read) and compares it in constant time; a revocation takes
 * effect on the next request of every process.
 */
import { digestsEqual } from '../auth/api-key.js';
import { randomBase62 } from '../kernel/ids.js';
import { AuthenticationError, InvalidRequestError } from '../kernel/errors.js';
import type { MerchantService } from '../merchants/merchant-service.js';
import type { Operator, OperatorAccess } from './operator.js';
import type { OperatorStore } from './operator-store.js';
import { generateOperatorToken, hashOperatorToken, isOperatorToken } from './operator-token.js';

export interface CreateOperatorOptions {
  name: string;
  access: OperatorAccess;
  /** The merchants it serves; none with `allMerchants`. */
  merchantIds?: string[];
  allMerchants?: boolean;
}

export class OperatorService {
  constructor(
    private readonly store: OperatorStore,
    /** Which merchants exist: the merchants domain's answer (merchants/). */
    private readonly merchants: Pick<MerchantService, 'missing'>,
  ) {}

  /** A new credential; its token is in the answer only, never stored. Merchants must exist. */
  async create(options: CreateOperatorOptions): Promise<{ operator: Operator; token: string }> {
    const name = options.name.trim();
    if (!name || name.length > 100) throw new InvalidRequestError('the name must be 1-100 characters', 'name');
    const merchantIds = [...new Set(options.merchantIds ?? [])];
    const allMerchants = options.allMerchants ?? false;
    if (allMerchants === merchantIds.length > 0) {
      throw new InvalidRequestError('name the merchants the credential serves (--merchant ID), or give it every merchant (--all-merchants): one of the two', 'merchant');
    }
    const missing = await this.merchants.missing(merchantIds);
    if (missing.length > 0) throw new InvalidRequestError(`no merchant ${missing.map((id) => JSON.stringify(id)).join(', ')} (create it first: merchants are created by \`keys create\` or the admin API)`, 'merchant');
    const token = generateOperatorToken();
    const operator = await this.store.create({
      id: `opr_${randomBase62(16)}`,
      name,
      tokenHash: hashOperatorToken(token),
      last4: token.slice(-4),
      access: options.access,
      allMerchants,
      merchantIds,
    });
    return { operator, token };
  }

  list(): Promise<Operator[]> {
    return this.store.list();
  }

  byId(id: string): Promise<Operator | undefined> {
    return this.store.byId(id);
  }

  /** false when there is no such operator. */
  revoke(id: string): Promise<boolean> {
    return this.store.revoke(id);
  }

  /** The operator a presented token belongs to; every failure is an AuthenticationError safe to show. */
  async authenticate(presented: string): Promise<Operator> {
    if (!isOperatorToken(presented)) {
      const hint = /^sk_/.test(presented) ? ': a merchant API key is not an operator credential' : ' (expected op_…; create one with `gateway operators create`)';
      throw new AuthenticationError(`Invalid operator credential${hint}`);
    }
    const hash = hashOperatorToken(presented);
    const found = await this.store.findByHash(hash);
    if (!found || !digestsEqual(found.tokenHash, hash)) throw new AuthenticationError('Invalid operator credential: no such credential');
    if (found.revokedAt) throw new AuthenticationError('Invalid operator credential: it has been revoked');
    const { tokenHash: _hash, ...operator } = found;
    return operator;
  }
}
