/**
 * payment_operations: the only code that reads or writes it (payment-operation.ts says what a row
 * is). Every write is one statement, conditional on the row's state, so that a completion, its
 * compensation and any number of workers (several processes) never both move one authorization:
 * the first to settle it wins, the others change nothing and see so.
 */
import type { Database } from '../../db/database.js';
import { iso, type Sql } from '../../db/sql.js';
import { utc } from '../../db/sql-time.js';
import type { Tx } from '../../db/transaction.js';
import { sql, type Statement } from '../../db/statement.js';
import { newId } from '../../kernel/ids.js';
import { SETTLED, type AuthorizationRequest, type OperationKind, type OperationState, type PaymentOperation } from './payment-operation.js';

type Row = Omit<PaymentOperation, 'amount' | 'nextAttemptAt' | 'createdAt' | 'updatedAt'> & { amount: string; nextAttemptAt: string; createdAt: string; updatedAt: string };

const COLUMNS = sql`p.id, p.merchant_id AS "merchantId", p.session_id AS "sessionId", p.order_id AS "orderId", p.refund_id AS "refundId",
  p.kind::text AS kind, p.state::text AS state, p.provider, p.amount::text AS amount, p.currency, p.reference,
  p.idempotency_key AS "idempotencyKey", p.request, p.attempts, p.last_error AS "lastError",
  ${iso(sql`p.next_attempt_at`)} AS "nextAttemptAt", ${iso(sql`p.created_at`)} AS "createdAt", ${iso(sql`p.updated_at`)} AS "updatedAt"`;

function decode(row: Row): PaymentOperation {
  return { ...row, amount: BigInt(row.amount), nextAttemptAt: new Date(row.nextAttemptAt), createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
}

/** A new operation's fields; `nextAttemptAt` is the lease of whoever runs it first (the request that recorded it). */
export interface NewOperation {
  /** Chosen by the caller when it must name the operation before it is written (default: a new `pop_…`). */
  id?: string;
  merchantId: string;
  sessionId: string;
  orderId?: string | null;
  refundId?: string | null;
  kind: OperationKind;
  provider: string;
  amount: bigint;
  currency: string;
  reference?: string | null;
  idempotencyKey: string;
  request?: AuthorizationRequest | null;
  nextAttemptAt: Date;
}

/** What the PSP answered (or that it could not be asked): the operation's new state. */
export type Recorded =
  | { state: Extract<OperationState, 'succeeded'>; reference: string }
  | { state: Extract<OperationState, 'failed' | 'requires_action'>; error: string; reference?: string | undefined }
  | { state: 'pending'; error: string; retryAt: Date };

export type AuthorizeClaim = { claimed: PaymentOperation } | { existing: PaymentOperation };

function insertValues(op: NewOperation, now: Date, state: OperationState = 'pending'): Statement {
  return sql`(${op.id ?? newId('pop')}, ${op.merchantId}, ${op.sessionId}, ${op.orderId ?? null}::text, ${op.refundId ?? null}::text, ${op.kind}::"PaymentOperationKind",
    ${state}::"PaymentOperationState", ${op.provider}::text, ${op.amount}::bigint, ${op.currency}::text, ${op.reference ?? null}::text, ${op.idempotencyKey},
    ${op.request ? JSON.stringify(op.request) : null}::jsonb, ${utc(op.nextAttemptAt)}, ${utc(now)}, ${utc(now)})`;
}
const INSERT_INTO = sql`INSERT INTO payment_operations (id, merchant_id, session_id, order_id, refund_id, kind, state, provider, amount, currency, reference,
  idempotency_key, request, next_attempt_at, created_at, updated_at)`;

/**
 * The CTEs a completion's statement adds (completion-sql.ts): the authorization settled by the order
 * — approved, its reference, the order's — and its capture recorded, pending (the outbox of the
 * money). `payment_settled` is empty when the authorization is no longer the completion's (its
 * lease expired and a worker released it): the completion then rolls back.
 */
export function captureCtes(authorizeId: string, reference: string, capture: NewOperation, now: Date): Statement {
  return sql`
    payment_settled AS (
      UPDATE payment_operations SET state = 'succeeded'::"PaymentOperationState", reference = ${reference}, order_id = ${capture.orderId ?? null}::text,
        next_attempt_at = ${utc(SETTLED)}, updated_at = ${utc(now)}
      WHERE id = ${authorizeId} AND next_attempt_at < ${utc(SETTLED)} RETURNING id),
    payment_capture AS (
      ${INSERT_INTO} SELECT * FROM (VALUES ${insertValues(capture, now)}) AS v WHERE EXISTS (SELECT 1 FROM payment_settled) RETURNING *)`;
}

/** An operation needing an operator's attention, as the console's home lists it (amount in minor units, as text). */
export interface AttentionRow {
  id: string;
  order_id: string | null;
  kind: string;
  state: string;
  provider: string;
  amount: string;
  currency: string;
  last_error: string | null;
  created_at: string;
}

/** A capture or cancel made at the PSP: the payment it moved. */
export interface MoveElsewhere {
  merchantId: string;
  sessionId: string;
  orderId: string;
  provider: string;
  amount: bigint;
  currency: string;
  /** The PSP's payment (pi_…). */
  reference: string;
}

export interface RefundElsewhere {
  merchantId: string;
  sessionId: string;
  orderId: string;
  /** The order refund (order_refunds.id) it is recorded as. */
  refundId: string;
  provider: string;
  amount: bigint;
  currency: string;
  /** The PSP's refund (re_…), or the event that reported it. */
  reference: string;
}

export class PaymentOperationStore {
  constructor(private readonly db: Database) {}

  /**
   * Records an authorization about to be asked, or takes over the one recorded with the same key when
   * nobody holds it (a decline or 3-D Secure asked again; a completion that crashed, its lease expired).
   * `existing`: someone holds it (a completion in progress, a worker) or it is settled.
   */
  async claimAuthorize(op: NewOperation, now: Date): Promise<AuthorizeClaim> {
    const [claimed] = await this.db.sql.query<Row>(sql`
      WITH claimed AS (
        ${INSERT_INTO} VALUES ${insertValues(op, now)}
        ON CONFLICT (idempotency_key) DO UPDATE SET
          state = CASE WHEN payment_operations.state = 'succeeded' THEN payment_operations.state ELSE 'pending'::"PaymentOperationState" END,
          last_error = NULL, next_attempt_at = EXCLUDED.next_attempt_at, updated_at = EXCLUDED.updated_at
        WHERE payment_operations.state IN ('failed', 'requires_action') OR payment_operations.next_attempt_at <= ${utc(now)}
        RETURNING *)
      SELECT ${COLUMNS} FROM claimed AS p`);
    if (claimed) return { claimed: decode(claimed) };
    const existing = await this.byKey(op.idempotencyKey);
    return existing ? { existing } : this.claimAuthorize(op, now); // gone in between: not possible, but never undefined
  }

  async byKey(key: string, on: Sql = this.db.sql): Promise<PaymentOperation | null> {
    const [row] = await on.query<Row>(sql`SELECT ${COLUMNS} FROM payment_operations AS p WHERE p.idempotency_key = ${key}`);
    return row ? decode(row) : null;
  }

  /** Records an outcome of an operation still pending; a final one is SETTLED (never due again). Returns whether it was still pending. */
  async record(id: string, outcome: Recorded, now: Date): Promise<boolean> {
    const reference = 'reference' in outcome ? (outcome.reference ?? null) : null;
    const error = 'error' in outcome ? outcome.error.slice(0, 1000) : null;
    const retryAt = outcome.state === 'pending' ? utc(outcome.retryAt) : sql`NULL::timestamp`;
    // An approved authorization stays leased to its completion (settled by the order or released); any other final answer is settled.
    // A refund that succeeded gives the order's refund its reference in this same statement (orders' table, written here on
    // purpose, as the completion writes the catalog's stock: no crash leaves the refund settled and the order's row without it).
    // Rows of the final SELECT, not a row count (PGlite counts none for a SELECT).
    const changed = await this.db.sql.query<{ one: number }>(sql`
      WITH changed AS (
        UPDATE payment_operations SET state = ${outcome.state}::"PaymentOperationState", reference = COALESCE(${reference}::text, reference),
          last_error = ${error}::text, attempts = attempts + 1, updated_at = ${utc(now)},
          next_attempt_at = CASE WHEN ${outcome.state}::text = 'pending' THEN ${retryAt}
            WHEN kind = 'authorize' AND ${outcome.state}::text = 'succeeded' THEN next_attempt_at ELSE ${utc(SETTLED)} END
        WHERE id = ${id} AND state = 'pending' RETURNING id, kind, refund_id),
      refund_reference AS (
        UPDATE order_refunds AS r SET reference = ${reference}::text FROM changed AS c
        WHERE c.kind = 'refund' AND r.id = c.refund_id AND ${outcome.state}::text = 'succeeded')
      SELECT 1 AS one FROM changed`);
    return changed.length > 0;
  }

  /**
   * Releases an authorization nobody will capture: it is settled with what is known of it, and its
   * cancel recorded (pending, leased to the caller) when the PSP approved it. Null when someone else
   * settled it first, or when it holds no money (declined).
   */
  async release(authorize: PaymentOperation, known: Recorded | null, cancel: NewOperation, now: Date): Promise<PaymentOperation | null> {
    const state = known && known.state !== 'pending' ? known.state : null;
    const reference = known && 'reference' in known ? (known.reference ?? null) : null;
    const holdsMoney = state === 'succeeded' || (state === null && authorize.state === 'succeeded');
    const [row] = await this.db.sql.query<Row>(sql`
      WITH settled AS (
        UPDATE payment_operations SET state = COALESCE(${state}::"PaymentOperationState", state), reference = COALESCE(${reference}::text, reference),
          attempts = attempts + ${state ? 1 : 0}::int, next_attempt_at = ${utc(SETTLED)}, updated_at = ${utc(now)}
        WHERE id = ${authorize.id} AND next_attempt_at < ${utc(SETTLED)} RETURNING id, reference),
      cancel AS (
        ${INSERT_INTO} SELECT v.id, v.merchant_id, v.session_id, v.order_id, v.refund_id, v.kind, v.state, v.provider, v.amount, v.currency,
          s.reference, v.idempotency_key, v.request, v.next_attempt_at, v.created_at, v.updated_at
        FROM (VALUES ${insertValues(cancel, now)}) AS v(id, merchant_id, session_id, order_id, refund_id, kind, state, provider, amount, currency, reference,
          idempotency_key, request, next_attempt_at, created_at, updated_at), settled AS s
        WHERE ${holdsMoney}::boolean AND s.reference IS NOT NULL
        ON CONFLICT (idempotency_key) DO NOTHING RETURNING *)
      SELECT ${COLUMNS} FROM cancel AS p`);
    return row ? decode(row) : null;
  }

  /** An orphaned authorization whose session has an order: settled by a capture, recorded here (leased to the caller). */
  async settleWithCapture(authorize: PaymentOperation, reference: string, capture: NewOperation, now: Date): Promise<PaymentOperation | null> {
    const [row] = await this.db.sql.query<Row>(sql`
      WITH ${captureCtes(authorize.id, reference, capture, now)}
      SELECT ${COLUMNS} FROM payment_capture AS p`);
    return row ? decode(row) : null;
  }

  /** A refund's operation, written in the refund's transaction (pending, leased to the request). */
  async insert(tx: Tx, op: NewOperation, now: Date): Promise<void> {
    await tx.execute(sql`${INSERT_INTO} VALUES ${insertValues(op, now)} ON CONFLICT (idempotency_key) DO NOTHING`);
  }

  /**
   * Takes up to `limit` due operations (several processes: row locks, SKIP LOCKED), each leased until
   * `leaseUntil`: pending moves, and authorizations whose lease expired unsettled.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<PaymentOperation[]> {
    const rows = await this.db.sql.query<Row>(sql`
      WITH due AS MATERIALIZED (
        SELECT id FROM payment_operations
        WHERE state IN ('pending', 'succeeded') AND next_attempt_at <= ${utc(now)}
        ORDER BY next_attempt_at LIMIT ${limit}::int FOR UPDATE SKIP LOCKED),
      leased AS (
        UPDATE payment_operations AS p SET next_attempt_at = ${utc(leaseUntil)}, updated_at = ${utc(now)}
        FROM due WHERE p.id = due.id RETURNING p.*)
      SELECT ${COLUMNS} FROM leased AS p`);
    return rows.map(decode);
  }

  /** Whether a capture of the session's payment is recorded (an orphaned authorization's fate). */
  async captureRecorded(sessionId: string): Promise<boolean> {
    const rows = await this.db.sql.query<{ one: number }>(sql`SELECT 1 AS one FROM payment_operations WHERE session_id = ${sessionId} AND kind = 'capture' LIMIT 1`);
    return rows.length > 0;
  }

  /** Every operation of the sessions, oldest first (an order's payment: its session's). */
  async ofSessions(sessionIds: readonly string[], on: Sql = this.db.sql): Promise<PaymentOperation[]> {
    if (sessionIds.length === 0) return [];
    const rows = await on.query<Row>(sql`
      SELECT ${COLUMNS} FROM payment_operations AS p WHERE p.session_id = ANY(${[...sessionIds]}::text[]) ORDER BY p.created_at, p.id`);
    return rows.map(decode);
  }

  /** How many authorizations of the session were released: the generation of its next authorization's key. */
  async releasedAuthorizations(sessionId: string): Promise<number> {
    const [row] = await this.db.sql.query<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM payment_operations WHERE session_id = ${sessionId} AND kind = 'cancel'`);
    return row?.n ?? 0;
  }

  /** The merchant's operations failed, awaiting the buyer's action, or pending since before `staleBefore`: how many, and the newest `shown`. */
  async needingAttention(merchantId: string, staleBefore: Date, shown: number): Promise<{ count: number; items: AttentionRow[] }> {
    const needsAttention = sql`merchant_id = ${merchantId} AND (state IN ('failed', 'requires_action') OR (state = 'pending' AND created_at < ${utc(staleBefore)}))`;
    const [items, count] = await Promise.all([
      this.db.sql.query<AttentionRow>(sql`
        SELECT id, order_id, kind::text, state::text, provider, amount::text, currency, last_error, ${iso(sql`created_at`)} AS created_at
          FROM payment_operations WHERE ${needsAttention}
         ORDER BY created_at DESC LIMIT ${shown}`),
      this.db.sql.query<{ n: number }>(sql`SELECT count(*)::int4 AS n FROM payment_operations WHERE ${needsAttention}`),
    ]);
    return { count: count[0]?.n ?? 0, items };
  }

  // What the PSP reported of a payment (settlement/provider-events/: its webhooks), in the caller's transaction:
  // the only writes made from the PSP's word rather than its answers.

  /** A pending capture or cancel of the session's payment `reference`, confirmed done by the PSP; false when none was pending. */
  async confirmMove(tx: Tx, sessionId: string, kind: 'capture' | 'cancel', reference: string | null): Promise<boolean> {
    const count = await tx.execute(sql`
      UPDATE payment_operations SET state = 'succeeded'::"PaymentOperationState", last_error = NULL,
        next_attempt_at = ${utc(SETTLED)}, updated_at = (now() AT TIME ZONE 'UTC')
      WHERE session_id = ${sessionId} AND kind = ${kind}::"PaymentOperationKind" AND state = 'pending'
        AND (${reference}::text IS NULL OR reference IS NULL OR reference = ${reference}::text)`);
    return count > 0;
  }

  /**
   * A capture or cancel made at the PSP, as a settled operation, unless the session's payment is
   * already recorded so (a capture or cancel succeeded); false when nothing was recorded.
   */
  async recordMove(tx: Tx, kind: 'capture' | 'cancel', move: MoveElsewhere): Promise<boolean> {
    const count = await tx.execute(sql`
      INSERT INTO payment_operations (id, merchant_id, session_id, order_id, kind, state, provider, amount, currency, reference,
        idempotency_key, attempts, next_attempt_at, created_at, updated_at)
      SELECT ${newId('pop')}, ${move.merchantId}, ${move.sessionId}, ${move.orderId}, ${kind}::"PaymentOperationKind", 'succeeded'::"PaymentOperationState",
        ${move.provider}, ${move.amount}::bigint, ${move.currency}, ${move.reference}, ${`psp-${kind}:${move.reference}`}, 0, ${utc(SETTLED)},
        (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC')
      WHERE NOT EXISTS (SELECT 1 FROM payment_operations AS p WHERE p.session_id = ${move.sessionId} AND p.state = 'succeeded'
        AND p.kind IN ('capture', 'cancel') AND (p.reference IS NULL OR p.reference = ${move.reference}))
      ON CONFLICT (idempotency_key) DO NOTHING`);
    return count > 0;
  }

  /** A refund made at the PSP, as a settled refund operation (its key names the PSP's refund: recorded once). */
  async recordRefund(tx: Tx, refund: RefundElsewhere): Promise<void> {
    await tx.execute(sql`
      INSERT INTO payment_operations (id, merchant_id, session_id, order_id, refund_id, kind, state, provider, amount, currency, reference,
        idempotency_key, attempts, next_attempt_at, created_at, updated_at)
      VALUES (${newId('pop')}, ${refund.merchantId}, ${refund.sessionId}, ${refund.orderId}, ${refund.refundId}, 'refund'::"PaymentOperationKind",
        'succeeded'::"PaymentOperationState", ${refund.provider}, ${refund.amount}::bigint, ${refund.currency}, ${refund.reference},
        ${`psp-refund:${refund.reference}`}, 0, ${utc(SETTLED)}, (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC'))
      ON CONFLICT (idempotency_key) DO NOTHING`);
  }
}
