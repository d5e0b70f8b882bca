/**
 * Reconciliation's repairs as payment operations (payments/operations/): every capture, cancel
 * and refund is recorded before the PSP is asked, with a key of its own, and run at once (the
 * worker retries it if the PSP cannot be reached). A refund made at the PSP is recorded as the
 * webhook would have (PaymentEventService.recordFact): an order refund, its settled operation,
 * the order's status and `order.refunded`.
 */
import type { UnitOfWork } from '../../db/transaction.js';
import { cancelKey, type PaymentOperation } from '../../payments/operations/payment-operation.js';
import type { NewOperation } from '../../payments/operations/payment-operation-store.js';
import type { PaymentOperations } from '../../payments/operations/payment-operations.js';
import type { PaymentEventService } from '../provider-events/payment-event-service.js';
import type { Drift } from './drift.js';
import type { PaymentRepairs } from './reconciliation-service.js';

export function operationsRepairs(db: UnitOfWork, operations: PaymentOperations, events: Pick<PaymentEventService, 'recordFact'>): PaymentRepairs {
  /** The approved authorization of the drift's payment, when one is recorded. */
  const authorizationOf = async (drift: Drift): Promise<PaymentOperation | undefined> =>
    (await operations.store.ofSessions([drift.sessionId])).findLast((op) => op.kind === 'authorize' && op.state === 'succeeded' && op.reference === drift.reference);

  /** Records `op` (nothing when its key is recorded already), runs it if still pending, and says how it ended. */
  const runOnce = async (op: NewOperation, what: string): Promise<string> => {
    await db.transaction((tx) => operations.store.insert(tx, op, new Date()));
    const recorded = await operations.store.byKey(op.idempotencyKey);
    if (!recorded) throw new Error(`the ${what} could not be recorded`);
    if (recorded.state !== 'pending') {
      if (recorded.state === 'succeeded') return `${what} already recorded as done (${recorded.id})`;
      throw new Error(`the ${what} was refused before (${recorded.id}): ${recorded.lastError ?? recorded.state}`);
    }
    const outcome = await operations.run(recorded);
    if (outcome.state === 'succeeded') return `${what} done (${recorded.id})`;
    if (outcome.state === 'pending') return `${what} recorded (${recorded.id}); the provider could not be reached, the payment worker retries it`;
    throw new Error(`${operations.provider.name} refused the ${what} (${recorded.id}): ${outcome.error}`);
  };

  const fresh = (drift: Drift, kind: 'cancel' | 'refund', amount: bigint, key: string): NewOperation => ({
    merchantId: drift.merchantId,
    sessionId: drift.sessionId,
    orderId: drift.orderId,
    kind,
    provider: operations.provider.name,
    amount,
    currency: drift.currency,
    reference: drift.reference,
    idempotencyKey: key,
    ...(kind === 'refund' ? { request: { reason: 'canceled' } } : {}),
    nextAttemptAt: operations.leaseEnd(),
  });

  return {
    async capture(drift) {
      const authorize = await authorizationOf(drift);
      if (!authorize || !drift.orderId) throw new Error(`no approved authorization of ${drift.reference} is recorded: capture it in the provider's dashboard`);
      // A key of its own: the order's first capture may be recorded (refused, or given up), and history is kept.
      const capture = operations.captureOf({ operation: authorize, reference: drift.reference }, drift.orderId);
      return runOnce({ ...capture, idempotencyKey: `${capture.idempotencyKey}:reconcile` }, 'capture');
    },
    async cancel(drift) {
      const authorize = await authorizationOf(drift);
      // The authorization's own cancel when nothing settled it yet; a reconciliation cancel of its own otherwise.
      const key = authorize ? `${cancelKey(authorize.idempotencyKey)}:reconcile` : `reconcile:cancel:${drift.reference}`;
      return runOnce(fresh(drift, 'cancel', drift.psp.amount, key), 'cancel');
    },
    async refund(drift) {
      const amount = drift.repair!.amount;
      return runOnce(fresh(drift, 'refund', amount, `reconcile:refund:${drift.reference}:${amount}`), 'refund');
    },
    async record_refund(drift) {
      if (!drift.orderId) throw new Error('a refund is recorded on an order, and this payment has none');
      const outcome = await events.recordFact(
        { merchantId: drift.merchantId, orderId: drift.orderId },
        { kind: 'refunded', amount: drift.psp.amount, currency: drift.currency, refundId: null },
        { id: `reconcile:${drift.reference}:${drift.psp.amount}`, provider: operations.provider.name },
      );
      if (outcome.result !== 'applied' || !outcome.emitted) throw new Error(`nothing to record (${outcome.result === 'ignored' ? outcome.reason : 'already recorded'})`);
      return `refund recorded on ${drift.orderId} (order.refunded ${outcome.emitted})`;
    },
  };
}
