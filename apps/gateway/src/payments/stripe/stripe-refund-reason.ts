/**
 * Our refund reasons (RefundReason) in Stripe's smaller enum (duplicate, fraudulent,
 * requested_by_customer); ours is kept in the refund's metadata. A reason Stripe has no word for
 * (`other`) is sent without one rather than mislabelled.
 */
const STRIPE_REASON: Record<string, 'duplicate' | 'fraudulent' | 'requested_by_customer'> = {
  requested_by_customer: 'requested_by_customer',
  damaged: 'requested_by_customer',
  not_received: 'requested_by_customer',
  canceled: 'requested_by_customer',
  duplicate: 'duplicate',
  fraudulent: 'fraudulent',
};

export function stripeRefundReason(reason: string | undefined): { reason?: 'duplicate' | 'fraudulent' | 'requested_by_customer' } {
  const mapped = reason ? STRIPE_REASON[reason] : undefined;
  return mapped ? { reason: mapped } : {};
}
