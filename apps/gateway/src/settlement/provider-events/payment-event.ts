/**
 * What a PSP's webhook event says happened to a payment, whichever PSP sent it: the Stripe
 * adapter's events (stripe-webhooks/stripe-event.ts) become these, and PaymentEventService
 * applies them to our orders. Amounts in minor units of `currency` (lower or upper case, as the PSP writes it).
 */

/** Where the payment's order is: the PSP's payment (Stripe's PaymentIntent), and what its metadata names. */
export interface PaymentEventTarget {
  /** The PSP's payment (pi_…), when the event names one. */
  reference: string | null;
  /** Metadata the gateway put on the payment (merchant_id, session_id); absent on charges and disputes. */
  merchantId: string | null;
  sessionId: string | null;
  /** The connected account the event happened on (Stripe Connect's `account`); null: the platform's own account. */
  account: string | null;
}

export type PaymentFact =
  /** The payment was captured (`amount` captured in all). */
  | { kind: 'captured'; amount: bigint; currency: string }
  /** The payment failed (an authorization attempt declined, or its authentication failed). */
  | { kind: 'failed'; reason: string }
  /** The authorization was released: nothing will be captured. */
  | { kind: 'canceled'; reason: string | null }
  /** `amount` has been refunded in all at the PSP (ours and any made in its dashboard); `refundId` the newest refund, when named. */
  | { kind: 'refunded'; amount: bigint; currency: string; refundId: string | null }
  /** A buyer's dispute, as the PSP now reports it; `opened` for the event that announces a new one. */
  | { kind: 'disputed'; opened: boolean; dispute: { id: string; amount: bigint; currency: string; reason: string; status: string; createdAt: Date } };

export interface PaymentEvent {
  /** The PSP's event id (evt_…): handled once. */
  id: string;
  provider: string;
  /** The PSP's event type, for logs and the handled-events table. */
  type: string;
  /** When the PSP created the event (a late, older event never overwrites a newer dispute status). */
  createdAt: Date;
  target: PaymentEventTarget;
  fact: PaymentFact;
}

/** What became of an event: applied (and our event emitted when the order changed), or why nothing changed. */
export type PaymentEventOutcome =
  | { result: 'applied'; orderId: string; emitted: string | null }
  | { result: 'duplicate' }
  | { result: 'ignored'; reason: string };
