import type { Prisma } from '../db/database.js';
import type { Tx } from '../db/transaction.js';
import { newId } from '../ids.js';

export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** An in-flight record older than this belongs to a request that died; another may take it over. */
export const ABANDONED_AFTER_MS = 60_000;

export interface IdempotencyScope {
  merchantId: string;
  apiKeyId: string;
  method: string;
  path: string;
  key: string;
}

export type BeginResult =
  | { kind: 'started'; recordId: string }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'conflict' }
  | { kind: 'in_flight' };

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === 'P2002';
}

/** The only code that touches idempotency_records. */
export class IdempotencyStore {
  constructor(private readonly prisma: Prisma) {}

  /** Claims the key for this request, or says what an earlier request with it became. */
  async begin(scope: IdempotencyScope, requestHash: string, now = new Date()): Promise<BeginResult> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const recordId = newId('idem');
      try {
        await this.prisma.idempotencyRecord.create({
          data: { id: recordId, ...scope, requestHash, state: 'in_flight', createdAt: now, expiresAt: new Date(now.getTime() + KEY_LIFETIME_MS) },
        });
        return { kind: 'started', recordId };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const existing = await this.prisma.idempotencyRecord.findUnique({
        where: { merchantId_apiKeyId_method_path_key: scope },
      });
      if (!existing) continue; // deleted meanwhile: try again
      if (existing.expiresAt <= now) {
        await this.prisma.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: { lte: now } } });
        continue;
      }
      if (existing.requestHash !== requestHash) return { kind: 'conflict' };
      if (existing.state === 'completed') return { kind: 'replay', status: existing.responseStatus!, body: existing.responseBody };
      if (existing.createdAt.getTime() < now.getTime() - ABANDONED_AFTER_MS) {
        const { count } = await this.prisma.idempotencyRecord.updateMany({
          where: { id: existing.id, state: 'in_flight', createdAt: existing.createdAt },
          data: { createdAt: now },
        });
        if (count === 1) return { kind: 'started', recordId: existing.id };
      }
      return { kind: 'in_flight' };
    }
    return { kind: 'in_flight' };
  }

  /** Stores the answer; inside the business transaction when `tx` is given. */
  async complete(recordId: string, status: number, body: unknown, tx?: Tx): Promise<void> {
    await (tx ?? this.prisma).idempotencyRecord.updateMany({
      where: { id: recordId, state: 'in_flight' },
      data: { state: 'completed', responseStatus: status, responseBody: body as object },
    });
  }

  /** Frees the key of a request that produced no storable answer (5xx, dropped connection). */
  async release(recordId: string): Promise<void> {
    await this.prisma.idempotencyRecord.deleteMany({ where: { id: recordId, state: 'in_flight' } });
  }

  /** Deletes expired records; returns how many. */
  async purgeExpired(now = new Date()): Promise<number> {
    const { count } = await this.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now } } });
    return count;
  }
}
