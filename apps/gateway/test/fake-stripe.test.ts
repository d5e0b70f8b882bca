/**
 * The Stripe double the payment tests rely on answers as Stripe does: shaped like stripe-mock's
 * fixtures, honouring Idempotency-Key, with the test payment methods' documented outcomes.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { signedEvent } from './support/fake-stripe-webhooks.js';
import { stripeClientOptions } from './support/stripe-mock.js';

let double: FakeStripe;
let stripe: Stripe;
const account = { stripeAccount: 'acct_1Double' };

beforeAll(async () => {
  double = await startFakeStripe();
  stripe = new Stripe('sk_test_123', { ...stripeClientOptions(double.url), maxNetworkRetries: 0 });
});
afterAll(() => double.stop());

async function fixture(method: string, path: string, body?: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${double.mock.url}${path}`, {
    method,
    headers: { authorization: 'Bearer sk_test_123', 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return (await response.json()) as Record<string, unknown>;
}

/** Every key of stripe-mock's fixture is in the double's answer, with a value of the same kind (or null). */
function expectFixtureShape(answer: object, template: Record<string, unknown>): void {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  for (const [key, value] of Object.entries(template)) {
    expect(answer, key).toHaveProperty(key);
    const mine = (answer as Record<string, unknown>)[key];
    if (value !== null && mine !== null) expect(kind(mine), key).toBe(kind(value));
  }
}

const open = (key: string, amount = 1000) =>
  stripe.paymentIntents.create(
    { amount, currency: 'usd', capture_method: 'manual', automatic_payment_methods: { enabled: true }, metadata: { merchant_id: 'm' } },
    { ...account, idempotencyKey: key },
  );

describe('the Stripe double', () => {
  it("answers a PaymentIntent in the shape of stripe-mock's fixture", async () => {
    const intent = await open('shape-1');
    expectFixtureShape(intent, await fixture('POST', '/v1/payment_intents', 'amount=1000&currency=usd'));
    expectFixtureShape(await stripe.paymentIntents.retrieve(intent.id, {}, account), await fixture('GET', '/v1/payment_intents/pi_123'));
  });

  it("answers a capture, a cancel and a refund in the shape of stripe-mock's fixtures", async () => {
    const intent = await open('shape-2');
    double.confirmByBuyer(intent.id);
    expectFixtureShape(await stripe.paymentIntents.capture(intent.id, {}, account), await fixture('POST', '/v1/payment_intents/pi_123/capture'));
    const released = await open('shape-3');
    expectFixtureShape(await stripe.paymentIntents.cancel(released.id, {}, account), await fixture('POST', '/v1/payment_intents/pi_123/cancel'));
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 100 }, account);
    expectFixtureShape(refund, await fixture('POST', '/v1/refunds', 'payment_intent=pi_123&amount=100'));
  });

  it("passes on stripe-mock's 400 for a request Stripe's API refuses", async () => {
    await expect(stripe.paymentIntents.create({ amount: 1000, currency: 'usd', capture_method: 'sometimes' as 'manual' }, account)).rejects.toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
    });
  });

  it('answers the same idempotency key with the same PaymentIntent, and refuses it with other parameters', async () => {
    const first = await open('same-key');
    const again = await open('same-key');
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    await expect(open('same-key', 2000)).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
    expect(double.count('create', first.id)).toBe(1);
  });

  it('moves an intent through confirm by the buyer, capture and a partial refund, counting each', async () => {
    const intent = await open('lifecycle');
    double.confirmByBuyer(intent.id);
    expect((await stripe.paymentIntents.retrieve(intent.id, {}, account)).status).toBe('requires_capture');
    const captured = await stripe.paymentIntents.capture(intent.id, {}, { ...account, idempotencyKey: 'cap-1' });
    await stripe.paymentIntents.capture(intent.id, {}, { ...account, idempotencyKey: 'cap-1' });
    expect(captured.status).toBe('succeeded');
    await stripe.refunds.create({ payment_intent: intent.id, amount: 300, reason: 'requested_by_customer' }, account);
    expect(double.count('capture', intent.id)).toBe(1);
    expect(double.count('refund', intent.id)).toBe(1);
    const charge = (await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] }, account)).latest_charge as Stripe.Charge;
    expect(charge.amount_refunded).toBe(300);
  });

  it('declines pm_card_chargeDeclined with a card error and its decline code', async () => {
    await expect(
      stripe.paymentIntents.create({ amount: 500, currency: 'usd', capture_method: 'manual', confirm: true, payment_method: 'pm_card_chargeDeclined' }, account),
    ).rejects.toMatchObject({ type: 'StripeCardError', code: 'card_declined', decline_code: 'generic_decline' });
  });

  it('asks for 3-D Secure with pm_card_threeDSecure2Required and authorizes once the buyer passed it', async () => {
    const intent = await stripe.paymentIntents.create(
      { amount: 500, currency: 'usd', capture_method: 'manual', confirm: true, payment_method: 'pm_card_threeDSecure2Required' },
      account,
    );
    expect(intent.status).toBe('requires_action');
    double.authenticate(intent.id, true);
    expect((await stripe.paymentIntents.retrieve(intent.id, {}, account)).status).toBe('requires_capture');
  });

  it('refuses a capture after a scripted lapse, and cancels an intent nobody confirmed', async () => {
    const lapsed = await open('lapse');
    double.confirmByBuyer(lapsed.id);
    double.failCapture(lapsed.id);
    await expect(stripe.paymentIntents.capture(lapsed.id, {}, account)).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
    const unconfirmed = await open('cancel');
    expect((await stripe.paymentIntents.cancel(unconfirmed.id, {}, account)).status).toBe('canceled');
    expect(double.count('cancel', unconfirmed.id)).toBe(1);
  });

  it('drops the answer after capturing, and replays the capture for the retried key', async () => {
    const intent = await open('drop');
    double.confirmByBuyer(intent.id);
    // stripe-node retries a closed connection once by itself (same key): drop both answers.
    double.fault({ kind: 'drop', when: 'after', path: /\/capture$/, times: 2 });
    await expect(stripe.paymentIntents.capture(intent.id, {}, { ...account, idempotencyKey: 'drop-cap', maxNetworkRetries: 0 })).rejects.toMatchObject({
      type: 'StripeConnectionError',
    });
    const retried = await stripe.paymentIntents.capture(intent.id, {}, { ...account, idempotencyKey: 'drop-cap' });
    expect(retried.status).toBe('succeeded');
    expect(double.count('capture', intent.id)).toBe(1);
  });

  it('answers 500 and 429 when told, and holds a request open for a timeout', async () => {
    double.fault({ kind: 500 });
    await expect(open('fault-500')).rejects.toMatchObject({ type: 'StripeAPIError', statusCode: 500 });
    double.fault({ kind: 429 });
    await expect(open('fault-429')).rejects.toMatchObject({ type: 'StripeRateLimitError' });
    double.fault({ kind: 'timeout' });
    await expect(stripe.paymentIntents.retrieve('pi_x', {}, { ...account, timeout: 300 })).rejects.toMatchObject({ type: 'StripeConnectionError' });
  });

  it('is driven over HTTP by a process without the object', async () => {
    const intent = await open('control');
    const post = (path: string, body: object = {}) => fetch(`${double.url}/__double${path}`, { method: 'POST', body: JSON.stringify(body) });
    expect((await post(`/payment_intents/${intent.id}/confirm`, { payment_method: 'pm_card_visa' })).status).toBe(200);
    await stripe.paymentIntents.capture(intent.id, {}, account);
    const counts = (await (await fetch(`${double.url}/__double/counts`)).json()) as { capture: Record<string, number> };
    expect(counts.capture[intent.id]).toBe(1);
  });

  it("signs webhook events the official client's check accepts", () => {
    const { payload, header, event } = signedEvent('whsec_test', 'payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent' }, { account: 'acct_1' });
    const verified = new Stripe('sk_test_123').webhooks.constructEvent(payload, header, 'whsec_test');
    expect(verified.id).toBe(event.id);
    expect(verified.account).toBe('acct_1');
  });
});
