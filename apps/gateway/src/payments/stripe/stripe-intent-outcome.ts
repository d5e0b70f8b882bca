/**
 * What a PaymentIntent means for the payment port: an authorization is approved only when the
 * intent waits for capture (manual capture, `requires_capture`) for exactly the amount asked, in
 * the currency asked; `requires_action` is 3-D Secure the buyer must do; anything else is said
 * plainly as a decline, never silently approved.
 */
import type Stripe from 'stripe';
import type { AuthenticationMetadata, PaymentOutcome, PaymentState } from '../payment-provider.js';

export interface Expected {
  amount: bigint;
  currency: string;
  sessionId: string;
}

export function judgeIntent(intent: Stripe.PaymentIntent, expected: Expected, metadata: AuthenticationMetadata): PaymentOutcome {
  const reference = intent.id;
  const money = `${expected.amount} ${expected.currency.toUpperCase()}`;
  if (intent.metadata?.session_id && intent.metadata.session_id !== expected.sessionId) {
    return { kind: 'declined', reference, reason: `The payment ${intent.id} belongs to another checkout session` };
  }
  switch (intent.status) {
    case 'requires_capture': {
      const authorized = BigInt(intent.amount_capturable);
      if (intent.currency !== expected.currency.toLowerCase() || authorized !== expected.amount) {
        return {
          kind: 'declined',
          reference,
          reason: `The payment authorizes ${authorized} ${intent.currency.toUpperCase()}, not the session's total of ${money}: the buyer confirms the payment again for the new total`,
        };
      }
      return { kind: 'approved', reference };
    }
    case 'requires_action': {
      const url = intent.next_action?.redirect_to_url?.url ?? undefined;
      return { kind: 'requires_authentication', reference, metadata, ...(url ? { url } : {}) };
    }
    case 'requires_payment_method': {
      const error = intent.last_payment_error;
      if (error) return { kind: 'declined', reference, reason: `${error.message ?? 'The payment failed'} (${error.decline_code || error.code || error.type})` };
      return { kind: 'declined', reference, reason: 'The buyer has not confirmed the payment yet (confirm it with Stripe.js and the session\'s client_secret first)' };
    }
    case 'requires_confirmation':
      return { kind: 'declined', reference, reason: 'The payment is not confirmed yet (requires_confirmation)' };
    case 'processing':
      return { kind: 'declined', reference, reason: 'The payment is still processing at Stripe; complete again once it is authorized' };
    case 'canceled':
      return { kind: 'declined', reference, reason: `The payment ${intent.id} was canceled (${intent.cancellation_reason ?? 'no reason given'})` };
    case 'succeeded':
      return { kind: 'declined', reference, reason: `The payment ${intent.id} was captured already, outside this gateway` };
    default:
      return { kind: 'declined', reference, reason: `The payment is in a state this gateway does not take (${String(intent.status)})` };
  }
}

/** Stripe's 3-D Secure runs on Stripe's side: what an agent is told (ACP's authentication_metadata). */
export function authenticationMetadata(account: string, merchantName: string, brand: string | undefined): AuthenticationMetadata {
  return {
    acquirer_details: {
      // Stripe acquires and runs 3-D Secure itself and does not disclose its acquirer BIN.
      acquirer_bin: '',
      // Shared payment tokens are offered to US sellers (docs.stripe.com/agentic-commerce).
      acquirer_country: 'US',
      acquirer_merchant_id: account.slice(0, 35),
      merchant_name: merchantName.slice(0, 40),
    },
    directory_server: brand === 'mastercard' ? 'mastercard' : brand === 'amex' ? 'american_express' : 'visa',
  };
}

const STATUS: Record<string, PaymentState['status']> = {
  requires_payment_method: 'open',
  requires_confirmation: 'open',
  processing: 'open',
  requires_action: 'requires_action',
  requires_capture: 'authorized',
  succeeded: 'captured',
  canceled: 'canceled',
};

/** The intent as reconciliation compares it (retrieved with `expand: ['latest_charge']`). */
export function paymentState(intent: Stripe.PaymentIntent): PaymentState {
  const charge = typeof intent.latest_charge === 'object' && intent.latest_charge ? intent.latest_charge : undefined;
  const failed = intent.status === 'requires_payment_method' && intent.last_payment_error;
  return {
    reference: intent.id,
    status: failed ? 'failed' : (STATUS[intent.status] ?? 'open'),
    authorized: BigInt(intent.status === 'requires_capture' ? intent.amount_capturable : intent.status === 'succeeded' ? intent.amount : 0),
    captured: BigInt(intent.amount_received ?? 0),
    refunded: BigInt(charge?.amount_refunded ?? 0),
    currency: intent.currency.toUpperCase(),
  };
}
