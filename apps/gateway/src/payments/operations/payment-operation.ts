/**
 * A payment operation: one movement of money asked of the PSP (payment_operations), recorded before
 * it is asked and kept with its outcome. Its idempotency key is derived from what it is for (the
 * session and instrument, the authorization it captures or releases, the refund it pays), so a
 * retry after a crash asks the PSP with the same key and moves the money once.
 *
 * An authorization holds money until it is *settled*: by the capture its order's transaction
 * recorded, or by the cancel that releases it. Until then `next_attempt_at` is its lease: a
 * completion in progress holds it; once expired, the worker resolves it (payment-worker.ts).
 * Settled, `next_attempt_at` is SETTLED, out of every worker's reach.
 */
import type { PaymentInstruction } from '../payment-provider.js';

export type OperationKind = 'authorize' | 'capture' | 'cancel' | 'refund';
export type OperationState = 'pending' | 'succeeded' | 'failed' | 'requires_action';

/** What an authorization asked, kept so the PSP can be asked again with the same key and parameters. */
export interface AuthorizationRequest {
  instruction?: PaymentInstruction;
  reference?: string;
  paymentMethod?: string;
  /** A refund's reason (RefundReason), sent with it. */
  reason?: string;
}

export interface PaymentOperation {
  id: string;
  merchantId: string;
  sessionId: string;
  orderId: string | null;
  refundId: string | null;
  kind: OperationKind;
  state: OperationState;
  provider: string;
  /** Minor units of `currency`. */
  amount: bigint;
  currency: string;
  reference: string | null;
  idempotencyKey: string;
  request: AuthorizationRequest | null;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** The lease of a settled authorization, and of a final operation: never due again. */
export const SETTLED = new Date('9999-12-31T00:00:00.000Z');

/** The keys of the moves that follow an authorization (one capture or one cancel, never both). */
export const captureKey = (authorizeKey: string) => `${authorizeKey}:capture`;
export const cancelKey = (authorizeKey: string) => `${authorizeKey}:cancel`;
export const refundKey = (refundId: string) => `refund:${refundId}`;

/** What a retryable failure waits before the next attempt: 1 s, 2 s, 4 s, … at most 10 minutes. */
export function retryDelayMs(attempts: number, baseMs = 1_000): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 600_000);
}
