import { randomBytes } from 'node:crypto';
import type { GatewayEnv } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { Subscription } from '../db/pg-listener.js';
import { AuthenticationError, InvalidRequestError } from '../errors.js';
import { digestsEqual, generateApiKey, hashApiKey, keyEnvironment, randomBase62 } from './api-key.js';
import { API_KEYS_CHANNEL, KeyCache } from './key-cache.js';
import type { KeyRecord, KeyStore } from './key-store.js';
import type { Scope } from './scopes.js';

export type Tier = 'sandbox' | 'production' | 'enterprise';

export interface CreateKeyOptions {
  merchantIds: string[];
  env: GatewayEnv;
  scopes: Scope[];
  tier?: Tier;
  rpm?: number;
  rpd?: number;
  signingSecret?: boolean;
}

export interface CreatedKey {
  id: string;
  key: string;
  signingSecret?: string;
}

/** Who is calling: what an authenticated request carries to everything after the edge. */
export interface Principal {
  keyId: string;
  environment: GatewayEnv;
  merchantIds: string[];
  scopes: string[];
  tier: Tier;
  rpm: number | null;
  rpd: number | null;
  signingSecret: string | null;
}

const MERCHANT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export class KeyService {
  private subscription: Subscription | undefined;

  constructor(
    private readonly store: KeyStore,
    /** Remembers authenticated keys while listening() runs (see KeyCache); without it every request reads the database. */
    private readonly cache = new KeyCache(),
  ) {}

  /**
   * Starts hearing changes to keys, so that authenticated keys can be remembered: a revocation by
   * any process then takes effect on the next request everywhere. Until this runs, and while its
   * connection is down, every request reads its key from the database.
   */
  async listen(db: Pick<Database, 'listen'>): Promise<void> {
    if (this.subscription) return;
    this.subscription = await db.listen(API_KEYS_CHANNEL, {
      onNotify: () => this.cache.clear(),
      onLost: () => this.cache.setListening(false),
      onRestored: () => this.cache.setListening(true),
    });
    this.cache.setListening(true);
  }

  /** Whether authenticated keys are being remembered now (listening, and its connection up). */
  get remembersKeys(): boolean {
    return this.cache.active;
  }

  async close(): Promise<void> {
    this.cache.setListening(false);
    await this.subscription?.close();
    this.subscription = undefined;
  }

  async create(options: CreateKeyOptions): Promise<CreatedKey> {
    const merchantIds = [...new Set(options.merchantIds)];
    if (merchantIds.length === 0) throw new InvalidRequestError('at least one merchant is needed');
    for (const id of merchantIds) {
      if (!MERCHANT_ID.test(id)) throw new InvalidRequestError(`merchant id ${JSON.stringify(id)} must be 1-100 letters, digits, '_', '.' or '-'`);
    }
    const tier = options.tier ?? (options.env === 'production' ? 'production' : 'sandbox');
    if (tier === 'enterprise' && (options.rpm === undefined || options.rpd === undefined)) {
      throw new InvalidRequestError('the enterprise tier needs rpm and rpd limits (--rpm, --rpd)');
    }
    const key = generateApiKey(options.env);
    const id = `key_${randomBase62(16)}`;
    const signingSecret = options.signingSecret ? `ss_${randomBytes(32).toString('base64url')}` : undefined;
    await this.store.create({
      id,
      keyHash: hashApiKey(key),
      last4: key.slice(-4),
      environment: options.env,
      scopes: options.scopes,
      tier,
      rpm: options.rpm ?? null,
      rpd: options.rpd ?? null,
      signingSecret: signingSecret ?? null,
      merchantIds,
    });
    this.cache.clear(); // this process at once (a refusal of this key may be remembered); others hear the INSERT's NOTIFY
    return { id, key, ...(signingSecret ? { signingSecret } : {}) };
  }

  /** The principal of a key this process already knows to be valid, without any I/O; else undefined. */
  remembered(presented: string, serverEnv: GatewayEnv): Principal | undefined {
    if (keyEnvironment(presented) !== serverEnv) return undefined;
    return this.cache.get(hashApiKey(presented));
  }

  /** Resolves a presented key; every failure is an AuthenticationError with a message safe to show. */
  async authenticate(presented: string, serverEnv: GatewayEnv): Promise<Principal> {
    const keyEnv = keyEnvironment(presented);
    if (!keyEnv) throw new AuthenticationError('Invalid API key: malformed (expected sk_dev_…, sk_sandbox_… or sk_live_…)');
    if (keyEnv !== serverEnv) {
      throw new AuthenticationError(`Invalid API key: a ${keyEnv} key cannot be used in the ${serverEnv} environment`);
    }
    const hash = hashApiKey(presented);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const refused = this.cache.refusal(hash);
    if (refused) throw new AuthenticationError(refused);
    const mark = this.cache.mark();
    const record = await this.store.findByHash(hash);
    const refusal = !record || !digestsEqual(record.keyHash, hash) ? 'Invalid API key: no such key' : record.revokedAt ? 'Invalid API key: this key has been revoked' : undefined;
    if (refusal || !record) {
      this.cache.refuse(hash, refusal!, mark);
      throw new AuthenticationError(refusal!);
    }
    const principal: Principal = Object.freeze({
      keyId: record.id,
      environment: record.environment,
      merchantIds: Object.freeze(record.merchantIds) as string[],
      scopes: Object.freeze(record.scopes) as string[],
      tier: record.tier,
      rpm: record.rpm,
      rpd: record.rpd,
      signingSecret: record.signingSecret,
    }); // shared by the requests the cache serves it to
    this.cache.set(hash, principal, mark);
    return principal;
  }

  list(): Promise<KeyRecord[]> {
    return this.store.list();
  }

  /**
   * Revokes by key id or by the key itself. This process forgets its keys at once; the others
   * hear of it from the database (the NOTIFY of a rule on api_keys, when the revocation commits).
   */
  async revoke(idOrKey: string): Promise<boolean> {
    const revoked = await this.store.revoke(idOrKey.startsWith('sk_') ? { keyHash: hashApiKey(idOrKey) } : { id: idOrKey });
    this.cache.clear();
    return revoked;
  }
}
