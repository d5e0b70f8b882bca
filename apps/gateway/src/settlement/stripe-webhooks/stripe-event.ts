/**
 * Stripe's webhook events as what they say of a payment (provider-events/payment-event.ts). Only
 * the fields read here are typed: an event's object is rendered in the API version of the
 * webhook endpoint, not the client's, and these fields are the same in every version since
 * 2020-08-27 (what stripe-mock speaks). Amounts are minor units, as ours.
 *
 * - payment_intent.succeeded: captured (`amount_received`);
 * - payment_intent.payment_failed: failed (`last_payment_error`);
 * - payment_intent.canceled: the authorization released (`cancellation_reason`);
 * - charge.refunded: `amount_refunded` is the charge's refunded total (ours and the dashboard's);
 *   since 2022-11-15 `refunds` is no longer included, so the newest refund id is read when present;
 * - charge.dispute.created / updated / closed: the dispute as it now stands.
 */
import type { PaymentEvent, PaymentFact, PaymentEventTarget } from '../provider-events/payment-event.js';

/** The events the endpoint handles (the ones to select in Stripe's dashboard). */
export const STRIPE_EVENT_TYPES = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
] as const;

/** A Stripe event, as far as it is read here. */
export interface StripeEventLike {
  id: string;
  type: string;
  created: number;
  /** The connected account the event happened on (Connect webhooks); absent for the platform's own. */
  account?: string | null;
  /** A live-mode event (false: test mode). */
  livemode?: boolean;
  data: { object: Record<string, unknown> };
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const amount = (value: unknown): bigint => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : 0n);
/** An expandable field: the id, or the expanded object's id. */
const idOf = (value: unknown): string | null => text(value) ?? text((value as { id?: unknown } | null | undefined)?.id);
const metadataOf = (object: Record<string, unknown>) => (object.metadata ?? {}) as Record<string, unknown>;

function target(event: StripeEventLike, reference: string | null, metadata: Record<string, unknown> = {}): PaymentEventTarget {
  return { reference, merchantId: text(metadata.merchant_id), sessionId: text(metadata.session_id), account: text(event.account) };
}

function newestRefundId(charge: Record<string, unknown>): string | null {
  const refunds = (charge.refunds as { data?: { id?: unknown; created?: unknown }[] } | undefined)?.data ?? [];
  const newest = [...refunds].sort((a, b) => Number(b.created ?? 0) - Number(a.created ?? 0))[0];
  return text(newest?.id);
}

function factOf(event: StripeEventLike): { reference: string | null; metadata?: Record<string, unknown>; fact: PaymentFact } | null {
  const object = event.data.object;
  switch (event.type) {
    case 'payment_intent.succeeded':
      return { reference: text(object.id), metadata: metadataOf(object), fact: { kind: 'captured', amount: amount(object.amount_received), currency: String(object.currency ?? '') } };
    case 'payment_intent.payment_failed': {
      const error = (object.last_payment_error ?? {}) as Record<string, unknown>;
      const reason = text(error.decline_code) ?? text(error.code) ?? text(error.message) ?? 'payment_failed';
      return { reference: text(object.id), metadata: metadataOf(object), fact: { kind: 'failed', reason } };
    }
    case 'payment_intent.canceled':
      return { reference: text(object.id), metadata: metadataOf(object), fact: { kind: 'canceled', reason: text(object.cancellation_reason) } };
    case 'charge.refunded':
      return {
        reference: idOf(object.payment_intent),
        metadata: metadataOf(object),
        fact: { kind: 'refunded', amount: amount(object.amount_refunded), currency: String(object.currency ?? ''), refundId: newestRefundId(object) },
      };
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
      return {
        reference: idOf(object.payment_intent),
        fact: {
          kind: 'disputed',
          opened: event.type === 'charge.dispute.created',
          dispute: {
            id: String(object.id),
            amount: amount(object.amount),
            currency: String(object.currency ?? ''),
            reason: text(object.reason) ?? 'general',
            status: text(object.status) ?? 'needs_response',
            createdAt: new Date((typeof object.created === 'number' ? object.created : event.created) * 1000),
          },
        },
      };
    default:
      return null;
  }
}

/** The event as a payment event, or null for a type the gateway does not handle. */
export function paymentEventOf(event: StripeEventLike): PaymentEvent | null {
  const found = factOf(event);
  if (!found || (found.fact.kind === 'disputed' && !found.fact.dispute.id)) return null;
  return {
    id: event.id,
    provider: 'stripe',
    type: event.type,
    createdAt: new Date(event.created * 1000),
    target: target(event, found.reference, found.metadata),
    fact: found.fact,
  };
}
