/**
 * What Stripe's test payment methods do when a PaymentIntent is confirmed with them, as Stripe
 * documents them (docs.stripe.com/testing): `pm_card_visa` and the other brands authorize,
 * `pm_card_chargeDeclined…` decline with the documented code and decline code,
 * `pm_card_threeDSecure2Required` / `pm_card_authenticationRequired` ask for 3-D Secure.
 * Anything else starting `pm_card_` authorizes like pm_card_visa; other `pm_…` are unknown (400).
 */
export type CardBehaviour =
  | { kind: 'approve'; brand: string }
  | { kind: 'decline'; code: string; declineCode?: string; message: string; brand: string }
  | { kind: 'authenticate'; brand: string };

const DECLINE = 'Your card was declined.';

const BEHAVIOURS: Record<string, CardBehaviour> = {
  pm_card_visa: { kind: 'approve', brand: 'visa' },
  pm_card_visa_debit: { kind: 'approve', brand: 'visa' },
  pm_card_mastercard: { kind: 'approve', brand: 'mastercard' },
  pm_card_amex: { kind: 'approve', brand: 'amex' },
  pm_card_discover: { kind: 'approve', brand: 'discover' },
  pm_card_chargeDeclined: { kind: 'decline', code: 'card_declined', declineCode: 'generic_decline', message: DECLINE, brand: 'visa' },
  pm_card_chargeDeclinedInsufficientFunds: {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
    brand: 'visa',
  },
  pm_card_chargeDeclinedLostCard: { kind: 'decline', code: 'card_declined', declineCode: 'lost_card', message: DECLINE, brand: 'visa' },
  pm_card_chargeDeclinedStolenCard: { kind: 'decline', code: 'card_declined', declineCode: 'stolen_card', message: DECLINE, brand: 'visa' },
  pm_card_chargeDeclinedFraudulent: { kind: 'decline', code: 'card_declined', declineCode: 'fraudulent', message: DECLINE, brand: 'visa' },
  pm_card_chargeDeclinedExpiredCard: { kind: 'decline', code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.', brand: 'visa' },
  pm_card_chargeDeclinedIncorrectCvc: { kind: 'decline', code: 'incorrect_cvc', declineCode: 'incorrect_cvc', message: "Your card's security code is incorrect.", brand: 'visa' },
  pm_card_chargeDeclinedProcessingError: {
    kind: 'decline',
    code: 'processing_error',
    declineCode: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
    brand: 'visa',
  },
  pm_card_threeDSecure2Required: { kind: 'authenticate', brand: 'visa' },
  pm_card_threeDSecureRequired: { kind: 'authenticate', brand: 'visa' },
  pm_card_authenticationRequired: { kind: 'authenticate', brand: 'visa' },
  pm_card_authenticationRequiredOnSetup: { kind: 'approve', brand: 'visa' },
};

/** The behaviour of a test payment method, or undefined when Stripe would not know it. */
export function cardBehaviour(paymentMethod: string): CardBehaviour | undefined {
  return BEHAVIOURS[paymentMethod] ?? (paymentMethod.startsWith('pm_card_') ? { kind: 'approve', brand: 'visa' } : undefined);
}
