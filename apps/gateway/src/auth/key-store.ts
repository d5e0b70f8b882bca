import type { Prisma } from '../db/database.js';
import { Prisma as SQL, type Environment, type RateLimitTier } from '../generated/prisma/client.js';

export interface NewKeyRecord {
  id: string;
  keyHash: string;
  last4: string;
  environment: Environment;
  scopes: string[];
  tier: RateLimitTier;
  rpm: number | null;
  rpd: number | null;
  signingSecret: string | null;
  merchantIds: string[];
}

export interface KeyRecord extends Omit<NewKeyRecord, 'keyHash'> {
  createdAt: Date;
  revokedAt: Date | null;
}

interface KeyRow {
  id: string;
  key_hash: string;
  last4: string;
  environment: Environment;
  scopes: string[];
  tier: RateLimitTier;
  rpm: number | null;
  rpd: number | null;
  signing_secret: string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
  merchant_ids: string[];
}

const withMerchants = { merchants: { select: { merchantId: true }, orderBy: { merchantId: 'asc' } } } as const;

type Row = Awaited<ReturnType<Prisma['apiKey']['findUnique']>> & { merchants: { merchantId: string }[] };

function toRecord(row: NonNullable<Row>): KeyRecord {
  const { keyHash: _hash, merchants, ...rest } = row;
  return { ...rest, merchantIds: merchants.map((m) => m.merchantId) };
}

export class KeyStore {
  constructor(private readonly prisma: Prisma) {}

  /** Stores the key; merchants named for the first time are created. */
  async create(record: NewKeyRecord): Promise<void> {
    const { merchantIds, ...key } = record;
    await this.prisma.$transaction(async (tx) => {
      for (const id of merchantIds) {
        await tx.merchant.upsert({ where: { id }, create: { id, name: id }, update: {} });
      }
      await tx.apiKey.create({ data: { ...key, merchants: { create: merchantIds.map((merchantId) => ({ merchantId })) } } });
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
      SELECT k.id, k.key_hash, k.last4, k.environment::text AS environment, k.scopes, k.tier::text AS tier,
             k.rpm, k.rpd, k.signing_secret, k.created_at, k.revoked_at,
             COALESCE(array_agg(m.merchant_id ORDER BY m.merchant_id) FILTER (WHERE m.merchant_id IS NOT NULL), '{}') AS merchant_ids
      FROM api_keys k LEFT JOIN api_key_merchants m ON m.api_key_id = k.id
      ${keyHash === undefined ? SQL.empty : SQL.sql`WHERE k.key_hash = ${keyHash}`}
      GROUP BY k.id`;
    return rows.map((row) => ({
      id: row.id,
      keyHash: row.key_hash,
      last4: row.last4,
      environment: row.environment,
      scopes: row.scopes,
      tier: row.tier,
      rpm: row.rpm,
      rpd: row.rpd,
      signingSecret: row.signing_secret,
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

  async merchantCount(): Promise<number> {
    return this.prisma.merchant.count();
  }
}
