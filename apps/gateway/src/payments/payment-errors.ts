/** Why a payment at completion did not go through. The completion is rolled back: nothing was ordered or taken. */
import { GatewayError, InvalidRequestError } from '../kernel/errors.js';
import type { AuthenticationMetadata } from './payment-provider.js';

/** The provider declined the payment. */
export class PaymentDeclinedError extends GatewayError {
  readonly code = 'payment_declined';
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
}

/** The instruction names a handler the session does not offer. */
export class UnknownPaymentHandlerError extends InvalidRequestError {}

/** The PSP could not be reached or answered 5xx/429: the operation is retried with the same idempotency key. */
export class PaymentUnreachableError extends Error {
  readonly retryable = true;
}
