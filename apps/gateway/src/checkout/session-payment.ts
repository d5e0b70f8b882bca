/**
 * The payment a provider opens for a session of our own API (PAYMENT_PROVIDER=stripe: a
 * PaymentIntent, manual capture), which the merchant's page confirms with Stripe.js before the
 * session is completed: opened when the session is (its client_secret the session's), its amount
 * following the session's total, and released when the session is canceled. The test provider
 * opens none: the session's `payment_method` token is authorized at completion instead.
 */
import type { Tx } from '../db/transaction.js';
import { newId } from '../kernel/ids.js';
import type { OpenedPayment } from '../payments/payment-provider.js';
import type { PaymentOperation } from '../payments/operations/payment-operation.js';
import type { PaymentOperations } from '../payments/operations/payment-operations.js';
import type { Session } from './session.js';

export class SessionPayment {
  constructor(private readonly operations: PaymentOperations) {}

  /** Opens the session's payment for `amount` (minor units); null when the provider opens none. */
  open(merchantId: string, sessionId: string, amount: bigint, currency: string): Promise<OpenedPayment | null> {
    return this.operations.provider.openPayment({ merchantId, sessionId, amount, currency, idempotencyKey: `open_${sessionId}` });
  }

  /**
   * After a change committed: the opened payment's amount follows the session's total. A payment
   * the buyer already confirmed cannot change, nor can an unreachable PSP be asked: completion then
   * refuses the payment, not authorized for exactly the total (402), until it is confirmed again.
   */
  async follow(before: Session, after: Session): Promise<void> {
    if (!after.paymentReference || (before.total === after.total && before.currency === after.currency)) return;
    await this.operations.provider.updatePayment(after.merchantId, after.paymentReference, after.total, after.currency).catch(() => {});
  }

  /** In the cancel's transaction: the release of the session's opened payment, recorded (pending); run it after the commit. */
  async recordRelease(tx: Tx, row: Session): Promise<PaymentOperation | null> {
    if (!row.paymentReference) return null;
    const now = new Date();
    const operation: PaymentOperation = {
      id: newId('pop'),
      merchantId: row.merchantId,
      sessionId: row.id,
      orderId: null,
      refundId: null,
      kind: 'cancel',
      state: 'pending',
      provider: this.operations.provider.name,
      amount: row.total,
      currency: row.currency,
      reference: row.paymentReference,
      idempotencyKey: `cancel_${row.id}_${row.paymentReference}`,
      request: null,
      attempts: 0,
      lastError: null,
      nextAttemptAt: this.operations.leaseEnd(),
      createdAt: now,
      updatedAt: now,
    };
    await this.operations.store.insert(tx, operation, now);
    return operation;
  }

  /** After the cancel committed: the release asked of the PSP (the worker retries it). */
  async release(operation: PaymentOperation | null): Promise<void> {
    if (operation) await this.operations.runQuietly(operation);
  }
}
