/** Why a payment at completion did not go through. The completion is rolled back: nothing was ordered or taken. */
import { GatewayError, InvalidRequestError, KnownError } from '../kernel/errors.js';
import type { AuthenticationMetadata } from './payment-provider.js';

/** The provider declined the payment: 402 unless the protocol words it otherwise (ACP and UCP do). */
export class PaymentDeclinedError extends GatewayError {
  readonly code = 'payment_declined';
  override readonly status: number = 402;
}

/** The provider asks the buyer to authenticate (3-D Secure) before it authorizes. */
export class AuthenticationRequiredError extends GatewayError {
  readonly code = 'requires_3ds';
  constructor(
    message: string,
    readonly metadata: AuthenticationMetadata,
  ) {
    super(message, 'authentication_result');
  }

  override readonly status: number = 402;
}

/** The instruction names a handler the session does not offer. */
export class UnknownPaymentHandlerError extends InvalidRequestError {}

/**
 * The PSP could not be reached or answered 5xx/429: the operation is retried with the same
 * idempotency key. Never a caller's answer as it is (payment-operations.ts keeps the operation
 * pending); were it to reach one, an internal error.
 */
export class PaymentUnreachableError extends KnownError {
  readonly code = 'psp_unreachable';
  readonly status = 502;
  readonly expose = false;
  readonly retryable = true;
}
