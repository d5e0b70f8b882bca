import type { Database } from '../db/database.js';
import { NOW_UTC } from '../db/sql-time.js';
import { sql, emptySql } from '../db/statement.js';
import type { Environment, RateLimitTier } from '../generated/prisma/client.js';
import { ensureMerchants } from '../merchants/merchant-store.js';
import type { SignatureScheme } from './request-signature-v2.js';

export interface NewKeyRecord {
  id: string;
  /** What the key is for, as its creator named it; null when unnamed. */
  name?: string | null;
  keyHash: string;
  last4: string;
  environment: Environment;
  scopes: string[];
  tier: RateLimitTier;
  rpm: number | null;
  rpd: number | null;
  signingSecret: string | null;
  /** Default `body`. */
  signatureScheme?: SignatureScheme;
  merchantIds: string[];
}

export interface KeyRecord extends Omit<NewKeyRecord, 'keyHash' | 'signatureScheme' | 'name'> {
  name: string | null;
  signatureScheme: SignatureScheme;
  createdAt: Date;
  revokedAt: Date | null;
}

interface KeyRow {
  id: string;
  name: string | null;
  key_hash: string;
  last4: string;
  environment: Environment;
  scopes: string[];
  tier: RateLimitTier;
  rpm: number | null;
  rpd: number | null;
  signing_secret: string | null;
  signature_scheme: SignatureScheme;
  created_at: Date | string;
  revoked_at: Date | string | null;
  merchant_ids: string[];
}

const withMerchants = { merchants: { select: { merchantId: true }, orderBy: { merchantId: 'asc' } } } as const;

type Row = Awaited<ReturnType<Database['prisma']['apiKey']['findUnique']>> & { merchants: { merchantId: string }[] };

function toRecord(row: NonNullable<Row>): KeyRecord {
  const { keyHash: _hash, merchants, ...rest } = row;
  return { ...rest, merchantIds: merchants.map((m) => m.merchantId) };
}

export class KeyStore {
  private readonly prisma: Database['prisma'];

  constructor(private readonly db: Pick<Database, 'prisma' | 'transaction'>) {
    this.prisma = db.prisma;
  }

  /** Stores the key; merchants named for the first time are created. */
  async create(record: NewKeyRecord): Promise<void> {
    const { merchantIds, ...key } = record;
    await this.db.transaction(async (tx) => {
      await ensureMerchants(tx, merchantIds);
      await tx.execute(sql`
        INSERT INTO api_keys (id, name, key_hash, last4, environment, scopes, tier, rpm, rpd, signing_secret, signature_scheme, created_at)
        VALUES (${key.id}, ${key.name ?? null}::text, ${key.keyHash}, ${key.last4}, ${key.environment}::"Environment", ${key.scopes}::text[], ${key.tier}::"RateLimitTier",
                ${key.rpm}::int, ${key.rpd}::int, ${key.signingSecret}::text, ${key.signatureScheme ?? 'body'}::"SignatureScheme", ${NOW_UTC})`);
      await tx.execute(sql`
        INSERT INTO api_key_merchants (api_key_id, merchant_id) SELECT ${key.id}, id FROM unnest(${merchantIds}::text[]) AS id`);
    });
  }

  /** The key with this hash, when the key directory cannot answer (see KeyDirectory): one round trip. */
  async findByHash(keyHash: string): Promise<(KeyRecord & { keyHash: string }) | undefined> {
    return (await this.select(keyHash))[0];
  }

  /** Every key, revoked ones included, with its hash: what the key directory holds. */
  all(): Promise<(KeyRecord & { keyHash: string })[]> {
    return this.select(undefined);
  }

  private async select(keyHash: string | undefined): Promise<(KeyRecord & { keyHash: string })[]> {
    const rows = await this.prisma.$queryRaw<KeyRow[]>`
      SELECT k.id, k.name, k.key_hash, k.last4, k.environment::text AS environment, k.scopes, k.tier::text AS tier,
             k.rpm, k.rpd, k.signing_secret, k.signature_scheme::text AS signature_scheme, k.created_at, k.revoked_at,
             COALESCE(array_agg(m.merchant_id ORDER BY m.merchant_id) FILTER (WHERE m.merchant_id IS NOT NULL), '{}') AS merchant_ids
      FROM api_keys k LEFT JOIN api_key_merchants m ON m.api_key_id = k.id
      ${keyHash === undefined ? emptySql : sql`WHERE k.key_hash = ${keyHash}`}
      GROUP BY k.id`;
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      keyHash: row.key_hash,
      last4: row.last4,
      environment: row.environment,
      scopes: row.scopes,
      tier: row.tier,
      rpm: row.rpm,
      rpd: row.rpd,
      signingSecret: row.signing_secret,
      signatureScheme: row.signature_scheme,
      createdAt: new Date(row.created_at),
      revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
      merchantIds: row.merchant_ids,
    }));
  }

  async list(): Promise<KeyRecord[]> {
    const rows = await this.prisma.apiKey.findMany({ include: withMerchants, orderBy: { createdAt: 'asc' } });
    return rows.map(toRecord);
  }

  /** Marks the key revoked; false when no such key exists. */
  async revoke(where: { id: string } | { keyHash: string }): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count > 0) return true;
    return (await this.prisma.apiKey.count({ where })) > 0;
  }

  /** Sets the key's signature scheme; false when no such key exists. */
  async setSignatureScheme(id: string, scheme: SignatureScheme): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({ where: { id }, data: { signatureScheme: scheme } });
    return count > 0;
  }

  /** Whether the database holds any merchant (keys name merchants; imports create them too). */
  async anyMerchant(): Promise<boolean> {
    return (await this.prisma.merchant.findFirst({ select: { id: true } })) !== null;
  }
}
