/**
 * The payment port (after ACP's payment handlers, rfc.payment_handlers.md, and Stripe's
 * PaymentIntents): a provider declares the handlers a merchant's buyers can pay with, opens a
 * payment for a session that a merchant's page confirms (our own API), authorizes one with an
 * agent's token (ACP, UCP), and captures, cancels and refunds it. Every call is made outside any
 * database transaction, after a payment operation recording it was written (payment_operations),
 * with that operation's idempotency key: a call retried after a crash moves money once.
 *
 * A PSP adapter (Stripe, Adyen, …) is a folder `<psp>/` implementing this interface, one
 * case in providers.ts and its name in config's PAYMENT_PROVIDERS. The built-in `test` provider
 * serves development and sandbox; `none` (production's default) refuses every payment.
 *
 * Failures: an outcome (`declined`, `failed`) is the PSP's final word and is not retried; a thrown
 * PaymentUnreachableError (network, timeout, PSP 5xx or 429) is retried with the same key.
 */

/** A handler instance as ACP's `capabilities.payment.handlers[]` shows it. */
export interface PaymentHandlerDeclaration {
  id: string;
  name: string;
  version: string;
  spec: string;
  requires_delegate_payment: boolean;
  requires_pci_compliance: boolean;
  psp: string;
  config_schema: string;
  instrument_schemas: string[];
  config: Record<string, unknown>;
}

/** What the buyer's agent hands over at completion. */
export interface PaymentInstruction {
  handlerId: string;
  instrument: { type: string; credential: { type: string; token: string } };
  /** The result of an authentication (3-D Secure) the provider asked for, when the agent did it. */
  authentication?: { outcome: string };
}

/** The session a payment is for, and the money. */
export interface PaymentSubject {
  merchantId: string;
  sessionId: string;
  /** In minor units of `currency`. */
  amount: bigint;
  currency: string;
  /** The payment operation's key: the PSP moves the money once however often it is asked with it. */
  idempotencyKey: string;
}

/** Authorizes with an agent's instrument (ACP, UCP) or checks the payment the buyer confirmed (our API: `reference`). */
export interface PaymentRequest extends PaymentSubject {
  /** An agent's instrument; absent for our API, whose buyer confirmed the opened payment on the merchant's page. */
  instruction?: PaymentInstruction;
  /** The payment opened for the session (openPayment's `reference`), when there is one. */
  reference?: string;
  /** Our API's `payment_method` token (the test provider decides by it; a PSP ignores it). */
  paymentMethod?: string;
}

/** 3-D Secure details an agent needs to authenticate the buyer (ACP's `authentication_metadata`). */
export interface AuthenticationMetadata {
  acquirer_details: { acquirer_bin: string; acquirer_country: string; acquirer_merchant_id: string; merchant_name: string };
  directory_server: 'american_express' | 'mastercard' | 'visa';
}

export type PaymentOutcome =
  /** Authorized (not captured) for exactly the amount asked; `reference` names it at the PSP. */
  | { kind: 'approved'; reference: string }
  | { kind: 'declined'; reason: string; reference?: string }
  /** The buyer must act first (3-D Secure); `url` is where (Stripe's next_action), when the PSP gives one. */
  | { kind: 'requires_authentication'; metadata: AuthenticationMetadata; reference?: string; url?: string };

/** A payment the PSP holds for a session before the buyer confirms it (our API, PAYMENT_PROVIDER=stripe). */
export interface OpenedPayment {
  reference: string;
  /** What a merchant's page confirms the payment with (Stripe.js); the session's `client_secret`. */
  clientSecret: string;
}

/** Capture, cancel or refund of the payment `reference`. */
export interface PaymentMove {
  merchantId: string;
  reference: string;
  /** In minor units (capture: what to capture; refund: what to pay back). */
  amount: bigint;
  currency: string;
  idempotencyKey: string;
  /** A refund's reason (RefundReason). */
  reason?: string;
}

export type MoveOutcome = { kind: 'succeeded'; reference: string } | { kind: 'failed'; reason: string };

/** What the PSP says of a payment now (reconciliation). Amounts in minor units. */
export interface PaymentState {
  reference: string;
  status: 'requires_action' | 'authorized' | 'captured' | 'canceled' | 'failed' | 'open';
  authorized: bigint;
  captured: bigint;
  refunded: bigint;
  currency: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Intervention types the provider can ask for (`3ds`), for capability negotiation. */
  readonly interventions: readonly ('3ds' | 'biometric' | 'address_verification')[];
  /** The handlers a merchant's buyers can pay with (empty: this merchant cannot take payments). */
  handlers(merchantId: string): Promise<PaymentHandlerDeclaration[]>;
  /**
   * Opens a payment a merchant's page confirms (our API), or null when the provider has none (the
   * test provider: the session's `payment_method` token is authorized at completion).
   */
  openPayment(subject: PaymentSubject): Promise<OpenedPayment | null>;
  /** Sets a still-unconfirmed opened payment's amount after the session's total changed. */
  updatePayment(merchantId: string, reference: string, amount: bigint, currency: string): Promise<void>;
  /** Authorizes (never captures) `amount`: an agent's instrument, or the opened payment the buyer confirmed. */
  authorize(request: PaymentRequest): Promise<PaymentOutcome>;
  capture(move: PaymentMove): Promise<MoveOutcome>;
  /** Releases an authorization (or an opened payment nobody confirmed). */
  cancel(move: PaymentMove): Promise<MoveOutcome>;
  refund(move: PaymentMove): Promise<MoveOutcome>;
  /** The PSP's view of a payment, for reconciliation; null when the PSP does not know it. */
  retrieve(merchantId: string, reference: string): Promise<PaymentState | null>;
}
