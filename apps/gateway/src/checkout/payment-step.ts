/**
 * The payment step of a completion: the instruction must name a handler the provider offers the
 * merchant; the provider authorizes the session's total. A decline or a request to authenticate
 * throws, so the completion's transaction rolls back (nothing ordered, no stock taken).
 */
import type { Session } from './session.js';
import { AuthenticationRequiredError, PaymentDeclinedError, UnknownPaymentHandlerError } from '../payments/payment-errors.js';
import type { PaymentInstruction, PaymentProvider } from '../payments/payment-provider.js';
import { NOT_CONFIGURED_MESSAGE, PaymentProviderNotConfiguredError } from '../payments/unconfigured-payment-provider.js';

export async function authorizePayment(payments: PaymentProvider, merchantId: string, row: Session, payment: PaymentInstruction): Promise<void> {
  const handlers = await payments.handlers(merchantId);
  if (handlers.length === 0) {
    throw new PaymentProviderNotConfiguredError(
      payments.name === 'none' ? NOT_CONFIGURED_MESSAGE : `The payment provider ${payments.name} offers merchant ${merchantId} no payment handler`,
    );
  }
  if (!handlers.some((handler) => handler.id === payment.handlerId)) {
    throw new UnknownPaymentHandlerError(`This session offers no payment handler ${JSON.stringify(payment.handlerId)}`, 'payment_data.handler_id');
  }
  const outcome = await payments.authorize({
    instruction: payment,
    merchantId,
    sessionId: row.id,
    amount: row.total,
    currency: row.currency,
    idempotencyKey: `${row.id}:${payment.handlerId}:${payment.instrument.credential.token}:${payment.authentication?.outcome ?? ''}`,
  });
  if (outcome.kind === 'declined') throw new PaymentDeclinedError(outcome.reason, 'payment_data');
  if (outcome.kind === 'requires_authentication') {
    throw new AuthenticationRequiredError('The payment needs 3-D Secure authentication of the buyer', outcome.metadata);
  }
}
