/**
 * How a Stripe call's failure reaches the payment port: a card error is the PSP's final word (a
 * decline, not retried); no answer, a timeout, Stripe's 5xx, a 429 or a key still in use is
 * PaymentUnreachableError (retried with the same idempotency key); a refused key or connected
 * account is a configuration fault operators must fix, said as such.
 */
import Stripe from 'stripe';
import { ServiceUnavailableError } from '../../kernel/errors.js';
import { PaymentUnreachableError } from '../payment-errors.js';

/** The merchant has no Stripe connected account: it cannot take payments until an operator sets one. */
export class StripeAccountMissingError extends ServiceUnavailableError {
  readonly reason = 'merchant_payments_not_set_up';
  constructor(merchantId: string) {
    super(
      `Merchant ${merchantId} cannot take payments: it has no Stripe account. An operator connects one with ` +
        `\`gateway merchants payments ${merchantId} --stripe-account acct_…\` or PUT /admin/merchants/${merchantId}/payments (docs/payments.md)`,
    );
  }
}

/** Stripe refused the platform's key or the merchant's connected account (revoked, wrong mode, not connected). */
export class StripeConfigurationError extends ServiceUnavailableError {
  readonly reason = 'stripe_refused_credentials';
}

/** The error a caller should see for a failed Stripe call that is not a card error, or undefined when it is one. */
export function unreachableOrMisconfigured(error: unknown, what: string): Error | undefined {
  if (!(error instanceof Stripe.errors.StripeError)) return undefined;
  if (isTransient(error)) return new PaymentUnreachableError(`Stripe could not be reached to ${what}: ${stripeMessage(error)}`, { cause: error });
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError) {
    return new StripeConfigurationError(
      `Stripe refused to ${what} (${stripeMessage(error)}): check STRIPE_SECRET_KEY and that the merchant's account is connected to the platform`,
    );
  }
  return undefined;
}

export function isTransient(error: InstanceType<typeof Stripe.errors.StripeError>): boolean {
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeRateLimitError) return true;
  if (error instanceof Stripe.errors.StripeAPIError) return true;
  if (error instanceof Stripe.errors.StripeIdempotencyError && error.code === 'idempotency_key_in_use') return true;
  return (error.statusCode ?? 0) >= 500 || error.statusCode === 429 || error.statusCode === 409;
}

export const isCardError = (error: unknown): error is InstanceType<typeof Stripe.errors.StripeCardError> => error instanceof Stripe.errors.StripeCardError;

export const isInvalidRequest = (error: unknown): error is InstanceType<typeof Stripe.errors.StripeInvalidRequestError> =>
  error instanceof Stripe.errors.StripeInvalidRequestError;

/** A card error as a decline's reason: Stripe's message and its (decline) code, e.g. "Your card was declined. (generic_decline)". */
export function declineReason(error: InstanceType<typeof Stripe.errors.StripeCardError>): string {
  return `${stripeMessage(error)} (${error.decline_code || error.code || 'card_declined'})`;
}

/** Stripe's message without the request id the client puts in front of it (`[req_…] `). */
export const stripeMessage = (error: Error): string => error.message.replace(/^\[req_[A-Za-z0-9]+\]\s*/, '');
