/**
 * The business's UCP signing keys in PostgreSQL (`ucp_signing_keys`), shared by every replica:
 * the only code that reads or writes them. The private JWK is stored as is, like webhook
 * endpoint secrets (endpoint-secrets.ts); it is never logged and never printed.
 */
import type { Database } from '../../db/database.js';
import { utc } from '../../db/sql-time.js';
import { sql } from '../../db/statement.js';

export interface StoredSigningKey {
  kid: string;
  privateJwk: string;
  activatesAt: Date;
  retiresAt: Date | null;
  createdAt: Date;
}

export class SigningKeyStore {
  constructor(private readonly db: Pick<Database, 'prisma' | 'transaction'>) {}

  /** Every key, newest activation first. */
  list(): Promise<StoredSigningKey[]> {
    return this.db.prisma.ucpSigningKey.findMany({ orderBy: [{ activatesAt: 'desc' }, { createdAt: 'desc' }] });
  }

  /** Stores `key` only when there is no key at all (the first key of a cluster, whichever replica comes first); returns whether it did. */
  insertFirst(key: Pick<StoredSigningKey, 'kid' | 'privateJwk'>, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE ucp_signing_keys IN SHARE ROW EXCLUSIVE MODE`);
      const count = await tx.execute(sql`
        INSERT INTO ucp_signing_keys (kid, private_jwk, activates_at, created_at)
        SELECT ${key.kid}, ${key.privateJwk}, ${utc(now)}, ${utc(now)}
        WHERE NOT EXISTS (SELECT 1 FROM ucp_signing_keys)`);
      return count === 1;
    });
  }

  /**
   * A rotation, in one transaction: the new key (published from now, signing from `activatesAt`),
   * and every key not retired sooner retired at `retireOthersAt`.
   */
  rotate(key: Pick<StoredSigningKey, 'kid' | 'privateJwk' | 'activatesAt'>, retireOthersAt: Date, now: Date): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE ucp_signing_keys SET retires_at = ${utc(retireOthersAt)} WHERE retires_at IS NULL OR retires_at > ${utc(retireOthersAt)}`);
      await tx.execute(sql`
        INSERT INTO ucp_signing_keys (kid, private_jwk, activates_at, created_at)
        VALUES (${key.kid}, ${key.privateJwk}, ${utc(key.activatesAt)}, ${utc(now)})`);
    });
  }

  /** Retires a key now (a compromised key leaves the profile at the next refresh); false when unknown. */
  async retire(kid: string, now: Date): Promise<boolean> {
    const { count } = await this.db.prisma.ucpSigningKey.updateMany({ where: { kid }, data: { retiresAt: now } });
    return count === 1;
  }
}
