import { randomBytes } from 'node:crypto';
import type { GatewayEnv } from '../config/config.js';
import type { Database } from '../db/database.js';
import { AuthenticationError, InvalidRequestError } from '../kernel/errors.js';
import { randomBase62 } from '../kernel/ids.js';
import { digestsEqual, generateApiKey, hashApiKey, keyEnvironment } from './api-key.js';
import { KeyDirectory, type DirectoryEntry } from './key-directory.js';
import type { KeyRecord, KeyStore } from './key-store.js';
import type { Principal, Tier } from './principal.js';
import type { SignatureScheme } from './request-signature-v2.js';
import type { Scope } from './scopes.js';


export interface CreateKeyOptions {
  merchantIds: string[];
  /** What the key is for (1–100 characters), shown beside it in lists and the console. */
  name?: string;
  env: GatewayEnv;
  scopes: Scope[];
  tier?: Tier;
  rpm?: number;
  rpd?: number;
  signingSecret?: boolean;
  /** `v2` requires X-Request-Signature (and implies a signing secret); default `body`. */
  signatureScheme?: SignatureScheme;
}

export interface CreatedKey {
  id: string;
  key: string;
  signingSecret?: string;
}

const MERCHANT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** A key's principal, frozen: shared by every request it authenticates. */
function principalOf(record: KeyRecord): Principal {
  return Object.freeze({
    keyId: record.id,
    environment: record.environment,
    merchantIds: Object.freeze([...record.merchantIds]) as string[],
    scopes: Object.freeze([...record.scopes]) as string[],
    tier: record.tier,
    rpm: record.rpm,
    rpd: record.rpd,
    signingSecret: record.signingSecret,
    signatureScheme: record.signatureScheme,
  });
}

const NO_SUCH_KEY = 'Invalid API key: no such key';
const REVOKED = 'Invalid API key: this key has been revoked';

export class KeyService {
  /** Every key in memory while changes to keys are heard (see KeyDirectory). */
  private readonly directory: KeyDirectory;

  constructor(
    private readonly store: KeyStore,
    onLoadFailed?: (error: unknown) => void,
  ) {
    this.directory = new KeyDirectory(
      async () => (await store.all()).map((record): DirectoryEntry => ({ keyHash: record.keyHash, revoked: record.revokedAt !== null, principal: principalOf(record) })),
      onLoadFailed,
    );
  }

  /**
   * Starts hearing changes to keys and loads them all, so that every authentication is answered
   * from memory: a revocation by any process takes effect on the next request everywhere. Until
   * this runs, and while its connection is down, every authentication reads its key from the database.
   */
  async listen(db: Pick<Database, 'listen'>): Promise<void> {
    await this.directory.listen(db);
  }

  /** Whether authentications are answered from memory now (listening, its connection up, the keys loaded). */
  get answersFromMemory(): boolean {
    return this.directory.answering;
  }

  async close(): Promise<void> {
    await this.directory.close();
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
    const name = options.name?.trim();
    if (name !== undefined && (name.length === 0 || name.length > 100)) throw new InvalidRequestError('a key name is 1 to 100 characters', 'name');
    const scheme = options.signatureScheme ?? 'body';
    if (scheme === 'v2' && options.signingSecret === false) throw new InvalidRequestError('the v2 signature scheme needs a signing secret', 'signature_scheme');
    const key = generateApiKey(options.env);
    const id = `key_${randomBase62(16)}`;
    const signingSecret = options.signingSecret || scheme === 'v2' ? `ss_${randomBytes(32).toString('base64url')}` : undefined;
    await this.store.create({
      id,
      name: name ?? null,
      keyHash: hashApiKey(key),
      last4: key.slice(-4),
      environment: options.env,
      scopes: options.scopes,
      tier,
      rpm: options.rpm ?? null,
      rpd: options.rpd ?? null,
      signingSecret: signingSecret ?? null,
      signatureScheme: scheme,
      merchantIds,
    });
    await this.keysChanged(); // this process at once; others hear the INSERT's NOTIFY
    return { id, key, ...(signingSecret ? { signingSecret } : {}) };
  }

  /** The principal of a key this process knows to be valid, from memory and at once; else undefined. */
  remembered(presented: string, serverEnv: GatewayEnv): Principal | undefined {
    if (keyEnvironment(presented) !== serverEnv) return undefined;
    return this.directory.known(hashApiKey(presented));
  }

  /**
   * Resolves a presented key; every failure is an AuthenticationError with a message safe to show.
   * From memory while the directory answers (see answersFromMemory); else one database read.
   */
  async authenticate(presented: string, serverEnv: GatewayEnv): Promise<Principal> {
    const keyEnv = keyEnvironment(presented);
    if (!keyEnv) throw new AuthenticationError('Invalid API key: malformed (expected sk_dev_…, sk_sandbox_… or sk_live_…)');
    if (keyEnv !== serverEnv) {
      throw new AuthenticationError(`Invalid API key: a ${keyEnv} key cannot be used in the ${serverEnv} environment`);
    }
    const hash = hashApiKey(presented);
    const known = await this.directory.lookup(hash);
    if (known === 'unknown') throw new AuthenticationError(NO_SUCH_KEY);
    if (known === 'revoked') throw new AuthenticationError(REVOKED);
    if (known !== 'unavailable') return known;
    const record = await this.store.findByHash(hash);
    if (!record || !digestsEqual(record.keyHash, hash)) throw new AuthenticationError(NO_SUCH_KEY);
    if (record.revokedAt) throw new AuthenticationError(REVOKED);
    return principalOf(record);
  }

  /** Whether any merchant exists yet (a first start seeds the demo merchant only into an empty database). */
  anyMerchant(): Promise<boolean> {
    return this.store.anyMerchant();
  }

  list(): Promise<KeyRecord[]> {
    return this.store.list();
  }

  /**
   * Revokes by key id or by the key itself. This process knows at once; the others
   * hear of it from the database (the NOTIFY of a rule on api_keys, when the revocation commits).
   */
  async revoke(idOrKey: string): Promise<boolean> {
    const revoked = await this.store.revoke(idOrKey.startsWith('sk_') ? { keyHash: hashApiKey(idOrKey) } : { id: idOrKey });
    await this.keysChanged();
    return revoked;
  }

  /**
   * Sets which signatures a key with a signing secret accepts (`v2`: X-Request-Signature only),
   * in every process from its next request. false when no such key exists.
   */
  async setSignatureScheme(id: string, scheme: SignatureScheme): Promise<boolean> {
    const record = (await this.store.list()).find((k) => k.id === id);
    if (!record) return false;
    if (record.signingSecret === null) throw new InvalidRequestError(`key ${id} has no signing secret: its requests are not signed`, 'signature_scheme');
    await this.store.setSignatureScheme(id, scheme);
    await this.keysChanged();
    return true;
  }

  /** This process's own change to keys: the directory (when it answers) is current before the caller goes on. */
  private async keysChanged(): Promise<void> {
    if (!this.directory.listening) return;
    await this.directory.refresh().catch(() => {}); // a failed load leaves the directory unanswering: reads go to the database
  }
}
