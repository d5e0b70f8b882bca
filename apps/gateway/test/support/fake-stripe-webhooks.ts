/**
 * Stripe's webhook events as Stripe sends them, signed: the event envelope (docs.stripe.com/api/
 * events/object) around an object, and a `Stripe-Signature` header made by the official client's
 * generateTestHeaderString, so the gateway's check (stripe.webhooks.constructEvent) accepts it.
 *
 *     const { payload, header } = signedEvent(secret, 'payment_intent.succeeded', stripe.intentView(id), { account: 'acct_1' });
 *     // or, through the double: await stripe.sendWebhook(url, secret, type, object, { eventId })
 *
 * Direct charges live on the merchant's connected account, so their events reach the platform's
 * Connect endpoint with `account` set. The same `eventId` twice is Stripe redelivering an event;
 * an old `timestamp` (seconds) makes the signature fall outside the tolerance.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

const webhooks = new Stripe('sk_test_double').webhooks;

export interface EventOptions {
  eventId?: string;
  /** The connected account the event happened on (Connect events). */
  account?: string;
  /** The signature's time, in seconds since the epoch (default now). */
  timestamp?: number;
}

export function stripeEvent(type: string, object: Record<string, unknown>, options: EventOptions = {}): Record<string, unknown> {
  return {
    id: options.eventId ?? `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    ...(options.account ? { account: options.account } : {}),
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

export function signedEvent(
  secret: string,
  type: string,
  object: Record<string, unknown>,
  options: EventOptions = {},
): { event: Record<string, unknown>; payload: string; header: string } {
  const event = stripeEvent(type, object, options);
  const payload = JSON.stringify(event);
  const timestamp = options.timestamp;
  return { event, payload, header: webhooks.generateTestHeaderString({ payload, secret, ...(timestamp === undefined ? {} : { timestamp }) }) };
}
