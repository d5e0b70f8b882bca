import type { Prisma } from '../db/database.js';
import type { Environment, RateLimitTier } from '../generated/prisma/client.js';

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

  async findByHash(keyHash: string): Promise<(KeyRecord & { keyHash: string }) | undefined> {
    const row = await this.prisma.apiKey.findUnique({ where: { keyHash }, include: withMerchants });
    return row ? { ...toRecord(row), keyHash: row.keyHash } : undefined;
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
