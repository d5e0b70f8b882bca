/**
 * The payment port (after ACP's payment handlers, rfc.payment_handlers.md): a provider declares
 * the handlers a merchant's buyers can pay with, authorizes a payment for a session at
 * completion, and pays (part of) it back for an order (refund). A PSP adapter (Stripe, Adyen, …) implements this interface and is chosen by the
 * `PAYMENT_PROVIDER` setting (see providers.ts); the built-in `test` provider serves development
 * and sandbox, and production refuses to complete until a real one is configured.
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

export interface PaymentRequest extends PaymentInstruction {
  merchantId: string;
  sessionId: string;
  /** Amount to authorize, in minor units of `currency`. */
  amount: bigint;
  currency: string;
  /** The same for every attempt at one session: a PSP call retried with it charges once. */
  idempotencyKey: string;
}

/** 3-D Secure details an agent needs to authenticate the buyer (ACP's `authentication_metadata`). */
export interface AuthenticationMetadata {
  acquirer_details: { acquirer_bin: string; acquirer_country: string; acquirer_merchant_id: string; merchant_name: string };
  directory_server: 'american_express' | 'mastercard' | 'visa';
}

export type PaymentOutcome =
  | { kind: 'approved'; reference: string }
  | { kind: 'declined'; reason: string }
  | { kind: 'requires_authentication'; metadata: AuthenticationMetadata };

/** Money to pay back on an order's payment (the one its session's completion authorized). */
export interface RefundRequest {
  merchantId: string;
  orderId: string;
  sessionId: string;
  /** Amount to pay back, in minor units of `currency` (> 0, at most what is left of the payment). */
  amount: bigint;
  currency: string;
  reason: string;
  /** One per refund: a PSP call retried with it pays back once. */
  idempotencyKey: string;
}

export type RefundOutcome = { kind: 'refunded'; reference: string } | { kind: 'failed'; reason: string };

export interface PaymentProvider {
  /** Name shown in logs and errors (`test`, `stripe`, …). */
  readonly name: string;
  /** Intervention types the provider can ask for (`3ds`), for capability negotiation. */
  readonly interventions: readonly ('3ds' | 'biometric' | 'address_verification')[];
  /** The handlers a merchant's buyers can pay with (empty: payments cannot be taken). */
  handlers(merchantId: string): PaymentHandlerDeclaration[];
  /** Authorizes (and captures) the amount; called inside the completion's transaction. */
  authorize(request: PaymentRequest): Promise<PaymentOutcome>;
  /** Pays back (part of) an order's payment; called inside the refund's transaction. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
}
