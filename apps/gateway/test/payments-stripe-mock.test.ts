/**
 * Every request the Stripe provider makes is one Stripe's API accepts: each port call against
 * Stripe's official mock (stripe-mock validates paths, parameters, types and enums; a refused
 * request would come back as a 400 invalid_request_error). stripe-mock keeps no state, so the
 * outcomes here are its fixtures' (a created intent reads requires_payment_method): outcomes are
 * the double's to test (payments-stripe-provider.test.ts).
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../src/payments/stripe/stripe-client.js';
import { STRIPE_HANDLER_ID } from '../src/payments/stripe/stripe-handler.js';
import { StripePaymentProvider } from '../src/payments/stripe/stripe-payment-provider.js';
import { NEWER_THAN_STRIPE_MOCK } from './support/fake-stripe.js';
import { startStripeMock, stripeClientOptions, type StripeMock } from './support/stripe-mock.js';

let mock: StripeMock;
let provider: StripePaymentProvider;
const subject = { merchantId: 'shop', sessionId: 'cs_1', amount: 1000n, currency: 'USD', idempotencyKey: 'op_1' };
const move = { merchantId: 'shop', reference: 'pi_123', amount: 400n, currency: 'USD', idempotencyKey: 'mv_1' };
const agentPays = (token: string) => ({
  ...subject,
  instruction: { handlerId: STRIPE_HANDLER_ID, instrument: { type: 'card', credential: { type: 'spt', token } } },
});

beforeAll(async () => {
  mock = await startStripeMock();
  provider = new StripePaymentProvider(stripeClient({ secretKey: 'sk_test_123', apiUrl: mock.url, maxNetworkRetries: 0 }), async () => 'acct_1ShopConnected', 'sandbox');
});
afterAll(() => mock.stop());

/** A refusal would be a 400 turned into a decline or failure naming Stripe's validation. */
const notRefused = (outcome: unknown) => expect(JSON.stringify(outcome), JSON.stringify(outcome)).not.toMatch(/validation|additional properties|Unrecognized request URL/i);

describe('every request of the Stripe provider, checked by stripe-mock', () => {
  it('opens and updates a payment', async () => {
    expect(await provider.openPayment(subject)).toMatchObject({ reference: expect.stringMatching(/^pi_/), clientSecret: expect.any(String) });
    await provider.updatePayment('shop', 'pi_123', 1200n, 'USD');
  });

  it('checks an opened payment and authorizes an agent\'s PaymentMethod', async () => {
    notRefused(await provider.authorize({ ...subject, reference: 'pi_123' }));
    notRefused(await provider.authorize(agentPays('pm_card_visa')));
    notRefused(await provider.authorize({ ...agentPays('pm_card_visa'), instruction: { ...agentPays('pm_card_visa').instruction, authentication: { outcome: 'authenticated' } } }));
  });

  it('captures, cancels, refunds with each reason, and retrieves', async () => {
    notRefused(await provider.capture(move));
    notRefused(await provider.cancel(move));
    for (const reason of [undefined, 'requested_by_customer', 'damaged', 'duplicate', 'fraudulent', 'other']) {
      notRefused(await provider.refund({ ...move, ...(reason ? { reason } : {}) }));
    }
    expect(await provider.retrieve('shop', 'pi_123')).toMatchObject({ reference: expect.stringMatching(/^pi_/), currency: expect.any(String) });
  });

  it('refuses a shared payment token\'s parameter, which its 2020 spec predates (checked against Stripe\'s current API reference instead)', async () => {
    // https://docs.stripe.com/api/payment_intents/create: payment_method_data.shared_payment_granted_token (API 2026-04-22 and later).
    const outcome = await provider.authorize(agentPays('spt_1RgaZcFPC5QUO6ZCDVZuVA8q'));
    expect(outcome).toMatchObject({ kind: 'declined', reason: expect.stringMatching(/payment_method_data/) });
    expect(NEWER_THAN_STRIPE_MOCK).toContain('payment_method_data[shared_payment_granted_token]');
  });

  it('refuses what Stripe\'s API refuses (the check is real)', async () => {
    const stripe = new Stripe('sk_test_123', stripeClientOptions(mock.url));
    await expect(stripe.paymentIntents.create({ amount: 1000, currency: 'usd', capture_method: 'later' as 'manual' })).rejects.toMatchObject({ statusCode: 400 });
  });
});
