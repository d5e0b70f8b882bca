import type { Database } from '../db/database.js';
import { iso } from '../db/sql.js';
import { utc } from '../db/sql-time.js';
import type { Tx } from '../db/transaction.js';
import { sql } from '../db/statement.js';
import { IdempotencyError } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';

export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * An in-flight record older than this may be taken over even when its holder looks alive (a backstop:
 * a key held by a process known to be gone is taken over at once, see db/holder-liveness.ts).
 */
export const ABANDONED_AFTER_MS = 60_000;

/** What one Idempotency-Key is scoped to: the merchant, the API key, the contract's operation and its path parameters. */
export interface IdempotencyScope {
  merchantId: string;
  apiKeyId: string;
  /** The contract's operationId. */
  operation: string;
  /** The path parameters as canonical JSON (see operationParams). */
  params: string;
  key: string;
}

/** Path parameters as canonical JSON: keys sorted, values as decoded (so `cs_1` and `cs%5F1` are one session). */
export function operationParams(params: Record<string, string>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

export type BeginResult =
  | { kind: 'started'; recordId: string }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'conflict' }
  | { kind: 'in_flight' };

interface StoredRecord {
  id: string;
  requestHash: string;
  state: 'in_flight' | 'completed';
  holder: string | null;
  responseStatus: number | null;
  responseBody: unknown;
  createdAt: string;
  expiresAt: string;
}

/**
 * The only code that touches idempotency_records. A key is claimed, and looked up, on every
 * idempotent request: those statements run on the driver; the rare ones (a takeover, a release,
 * the hourly purge) through Prisma.
 */
export class IdempotencyStore {
  private readonly prisma: Database['prisma'];
  private readonly sql: Database['sql'];
  /** Which holders are alive: the database's (`db.holders`), shared by every store on it. */
  private readonly holders: Database['holders'];

  constructor(db: Pick<Database, 'prisma' | 'sql' | 'holders'>) {
    ({ prisma: this.prisma, sql: this.sql, holders: this.holders } = db);
  }

  /** Claims the key for this request, or says what an earlier request with it became. */
  async begin(scope: IdempotencyScope, requestHash: string, now = new Date()): Promise<BeginResult> {
    const holder = await this.holders.self();
    for (let attempt = 0; attempt < 3; attempt++) {
      const recordId = newId('idem');
      const claimed = await this.sql.execute(sql`
        INSERT INTO idempotency_records (id, merchant_id, api_key_id, operation, params, key, request_hash, state, holder, created_at, expires_at)
        VALUES (${recordId}, ${scope.merchantId}, ${scope.apiKeyId}, ${scope.operation}, ${scope.params}, ${scope.key}, ${requestHash},
                'in_flight'::"IdempotencyState", ${holder}, ${utc(now)}, ${utc(new Date(now.getTime() + KEY_LIFETIME_MS))})
        ON CONFLICT (merchant_id, api_key_id, operation, params, key) DO NOTHING`);
      if (claimed === 1) return { kind: 'started', recordId };
      const existing = await this.find(scope);
      if (!existing) continue; // deleted meanwhile: try again
      if (existing.expiresAt <= now) {
        await this.prisma.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: { lte: now } } });
        continue;
      }
      if (existing.requestHash !== requestHash) return { kind: 'conflict' };
      if (existing.state === 'completed') return { kind: 'replay', status: existing.responseStatus!, body: existing.responseBody };
      const abandoned =
        existing.createdAt.getTime() < now.getTime() - ABANDONED_AFTER_MS ||
        (existing.holder !== null && (await this.holders.isGone(existing.holder)));
      if (abandoned) {
        // A new id fences the old holder off: should it still be running, it can no longer store its answer.
        const takenOver = newId('idem');
        const { count } = await this.prisma.idempotencyRecord.updateMany({
          where: { id: existing.id, state: 'in_flight' },
          data: { id: takenOver, holder, createdAt: now },
        });
        if (count === 1) return { kind: 'started', recordId: takenOver };
        continue; // another request took it over, or it completed meanwhile: look again
      }
      return { kind: 'in_flight' };
    }
    return { kind: 'in_flight' };
  }

  private async find(scope: IdempotencyScope): Promise<(Omit<StoredRecord, 'createdAt' | 'expiresAt'> & { createdAt: Date; expiresAt: Date }) | undefined> {
    const [row] = await this.sql.query<StoredRecord>(sql`
      SELECT id, request_hash AS "requestHash", state::text AS state, holder, response_status AS "responseStatus", response_body AS "responseBody",
             ${iso(sql`created_at`)} AS "createdAt", ${iso(sql`expires_at`)} AS "expiresAt"
      FROM idempotency_records
      WHERE merchant_id = ${scope.merchantId} AND api_key_id = ${scope.apiKeyId} AND operation = ${scope.operation}
        AND params = ${scope.params} AND key = ${scope.key}`);
    return row && { ...row, createdAt: new Date(row.createdAt), expiresAt: new Date(row.expiresAt) };
  }

  /**
   * Stores the answer; inside the business transaction when `tx` is given. A key taken over
   * meanwhile (see begin) is not this request's any more: inside a transaction that is an
   * IdempotencyError, so the business change rolls back rather than happen twice.
   */
  async complete(recordId: string, status: number, body: unknown, tx?: Tx): Promise<void> {
    if (!tx) {
      await this.prisma.idempotencyRecord.updateMany({ where: { id: recordId, state: 'in_flight' }, data: { state: 'completed', responseStatus: status, responseBody: body as object } });
      return;
    }
    const count = await tx.execute(sql`
      UPDATE idempotency_records SET state = 'completed', response_status = ${status}, response_body = ${JSON.stringify(body)}::json
      WHERE id = ${recordId} AND state = 'in_flight'`);
    if (count === 0) {
      throw new IdempotencyError('idempotency_in_flight', 'This Idempotency-Key was taken over by a retry of the request; its answer comes from there', 1);
    }
  }

  /** Frees the key of a request that produced no storable answer (5xx, dropped connection). */
  async release(recordId: string): Promise<void> {
    await this.prisma.idempotencyRecord.deleteMany({ where: { id: recordId, state: 'in_flight' } });
  }

  /**
   * Deletes the merchant's stored answers (and their keys) whose path or answer holds any of these
   * ids, in the caller's transaction: a buyer's erasure (customers/), so no answer replays their details.
   */
  async forgetAnswersHolding(tx: Tx, merchantId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return tx.execute(sql`
      DELETE FROM idempotency_records AS r
      WHERE r.merchant_id = ${merchantId} AND EXISTS (SELECT 1 FROM unnest(${[...ids]}::text[]) AS x(id)
        WHERE strpos(r.params, x.id) > 0 OR strpos(COALESCE(r.response_body::text, ''), x.id) > 0)`);
  }

  /** Deletes expired records; returns how many. */
  async purgeExpired(now = new Date()): Promise<number> {
    const { count } = await this.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now } } });
    return count;
  }
}
