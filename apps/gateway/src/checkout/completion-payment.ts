/**
 * The payment of a completion, around its transaction (issue 36): money moves outside it, never
 * without a record (payments/operations/).
 *
 * 1. `authorize`, before the transaction: what is paid with — an agent's instruction (ACP, UCP; its
 *    handler must be one the provider offers the merchant), the payment opened for the session
 *    (our API with a provider that opens payments: the buyer confirmed it on the merchant's page), or
 *    the session's `payment_method` token (our API with the test provider: `demo_card` approves) —
 *    is authorized for the session's total. A decline or 3-D Secure throws; nothing but the
 *    operation is written. Our API without a provider (`none`) takes no payment, as before.
 * 2. `ctes`: the order's transaction settles the authorization and records its capture, pending.
 * 3. `capture`, after the commit: the capture runs now; the worker backs it up.
 * 4. `release`, when the transaction failed (stock taken by another buyer, a code's last use,
 *    anything): the authorization is cancelled — recorded, and retried by the worker.
 */
import { newId } from '../kernel/ids.js';
import { UnknownPaymentHandlerError } from '../payments/payment-errors.js';
import type { PaymentInstruction } from '../payments/payment-provider.js';
import { NOT_CONFIGURED_MESSAGE, PaymentProviderNotConfiguredError } from '../payments/unconfigured-payment-provider.js';
import { captureCtes } from '../payments/operations/payment-operation-store.js';
import type { PaymentOperation } from '../payments/operations/payment-operation.js';
import { PaymentOperations, type Authorized } from '../payments/operations/payment-operations.js';
import type { Statement } from '../db/statement.js';
import type { Session } from './session.js';

/** An authorization held for a completion, and the capture its order's transaction records. */
export interface HeldPayment {
  authorized: Authorized;
  capture: PaymentOperation;
}

export class CompletionPayment {
  constructor(readonly operations: PaymentOperations) {}

  /**
   * Authorizes the session's total (row: the session as read before the transaction). 'settled':
   * another completion of this session settled its payment first (the transaction's lock answers).
   * null: our API without a payment provider takes no payment.
   */
  async authorize(merchantId: string, row: Session, instruction: PaymentInstruction | undefined): Promise<Authorized | 'settled' | null> {
    const provider = this.operations.provider;
    const subject = { merchantId, sessionId: row.id, amount: row.total, currency: row.currency };
    const amount = `${row.total}${row.currency}`;
    if (instruction) {
      const handlers = await provider.handlers(merchantId);
      if (handlers.length === 0) {
        throw new PaymentProviderNotConfiguredError(
          provider.name === 'none'
            ? NOT_CONFIGURED_MESSAGE
            : `Merchant ${merchantId} cannot take payments: the payment provider ${provider.name} offers it no payment handler. An operator sets it up with \`gateway merchants payments ${merchantId}\` or PUT /admin/merchants/${merchantId}/payments (docs/payments.md)`,
        );
      }
      if (!handlers.some((handler) => handler.id === instruction.handlerId)) {
        throw new UnknownPaymentHandlerError(`This session offers no payment handler ${JSON.stringify(instruction.handlerId)}`, 'payment_data.handler_id');
      }
      const key = PaymentOperations.key(row.id, amount, instruction.handlerId, instruction.instrument.credential.token, instruction.authentication?.outcome ?? '');
      return this.operations.authorize(subject, { instruction }, key);
    }
    // Without a payment provider (production's default until a PSP is configured) our API completes as it always has,
    // taking no payment (its `payment_method` recorded): no money moves, so none needs a record. Agents are refused above.
    if (provider.name === 'none') return null;
    if (row.paymentReference) return this.operations.authorize(subject, { reference: row.paymentReference }, PaymentOperations.key(row.id, amount, 'opened', row.paymentReference));
    return this.operations.authorize(subject, { paymentMethod: row.paymentMethod }, PaymentOperations.key(row.id, amount, 'payment_method', row.paymentMethod));
  }

  /** The capture the order `orderId` records, and the statement's CTEs that record it (completion-sql.ts). */
  hold(authorized: Authorized, orderId: string, now: Date): { held: HeldPayment; ctes: Statement } {
    const capture = { ...this.operations.captureOf(authorized, orderId), id: newId('pop') };
    const ctes = captureCtes(authorized.operation.id, authorized.reference, capture, now);
    const operation: PaymentOperation = {
      ...capture,
      orderId,
      refundId: null,
      reference: authorized.reference,
      request: null,
      state: 'pending',
      attempts: 0,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
    return { held: { authorized, capture: operation }, ctes };
  }

  /** After the commit: the capture now (a failure is the worker's to retry). */
  async capture(held: HeldPayment): Promise<void> {
    await this.operations.runQuietly(held.capture);
  }

  /** The transaction failed: the authorization is released (a failure to record it is the worker's, after its lease). */
  async release(authorized: Authorized): Promise<void> {
    await this.operations.release(authorized).catch(() => {});
  }
}
