/**
 * The Stripe provider against the Stripe double (fake-stripe.ts: every request also validated by
 * stripe-mock): our API's opened payment, agents' tokens, declines, 3-D Secure, capture, cancel,
 * partial refund, and Stripe out of reach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidStateError } from '../src/kernel/errors.js';
import { PaymentUnreachableError } from '../src/payments/payment-errors.js';
import type { PaymentRequest } from '../src/payments/payment-provider.js';
import { stripeClient } from '../src/payments/stripe/stripe-client.js';
import { StripeAccountMissingError } from '../src/payments/stripe/stripe-errors.js';
import { STRIPE_HANDLER_ID } from '../src/payments/stripe/stripe-handler.js';
import { StripePaymentProvider } from '../src/payments/stripe/stripe-payment-provider.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';

const ACCOUNT = 'acct_1ShopConnected';
let stripe: FakeStripe;
let provider: StripePaymentProvider;
let sequence = 0;

const accounts = async (merchantId: string) => (merchantId === 'shop' ? ACCOUNT : null);
const providerWith = (options: { timeoutMs?: number; maxNetworkRetries?: number } = {}) =>
  new StripePaymentProvider(stripeClient({ secretKey: 'sk_test_123', apiUrl: stripe.url, ...options }), accounts, 'sandbox');

beforeAll(async () => {
  stripe = await startFakeStripe();
  provider = providerWith();
});
afterAll(() => stripe.stop());

const subject = (amount = 1000n) => ({ merchantId: 'shop', sessionId: `cs_${++sequence}`, amount, currency: 'USD', idempotencyKey: `op_${sequence}` });
const agentPays = (token: string, authentication?: string, base = subject()): PaymentRequest => ({
  ...base,
  instruction: {
    handlerId: STRIPE_HANDLER_ID,
    instrument: { type: 'card', credential: { type: 'spt', token } },
    ...(authentication ? { authentication: { outcome: authentication } } : {}),
  },
});
const move = (reference: string, amount = 1000n, reason?: string) => ({
  merchantId: 'shop',
  reference,
  amount,
  currency: 'USD',
  idempotencyKey: `mv_${++sequence}`,
  ...(reason ? { reason } : {}),
});
const lastRequest = (path: RegExp) => stripe.requests.filter((r) => path.test(r.path)).at(-1)!;

/** An authorized agent payment's reference. */
async function authorized(amount = 1000n): Promise<string> {
  const outcome = await provider.authorize(agentPays('pm_card_visa', undefined, subject(amount)));
  if (outcome.kind !== 'approved') throw new Error(JSON.stringify(outcome));
  return outcome.reference;
}

describe('the Stripe provider, our API (a payment the merchant page confirms with Stripe.js)', () => {
  it('opens a manual-capture PaymentIntent on the merchant\'s connected account, keyed by the operation', async () => {
    const opened = await provider.openPayment(subject());
    expect(opened.reference).toMatch(/^pi_/);
    expect(opened.clientSecret).toMatch(new RegExp(`^${opened.reference}_secret_`));
    const request = lastRequest(/^\/v1\/payment_intents$/);
    expect(request).toMatchObject({
      account: ACCOUNT,
      idempotencyKey: `op_${sequence}`,
      params: { amount: '1000', currency: 'usd', capture_method: 'manual', automatic_payment_methods: { enabled: 'true' }, metadata: { merchant_id: 'shop', session_id: `cs_${sequence}` } },
    });
  });

  it('approves only once the buyer confirmed it, for exactly the session\'s total', async () => {
    const paid = subject();
    const { reference } = await provider.openPayment(paid);
    expect(await provider.authorize({ ...paid, reference })).toMatchObject({ kind: 'declined', reason: expect.stringMatching(/not confirmed the payment yet/) });
    await provider.updatePayment('shop', reference, 1500n, 'USD');
    stripe.confirmByBuyer(reference);
    expect(await provider.authorize({ ...paid, reference })).toMatchObject({ kind: 'declined', reason: expect.stringMatching(/authorizes 1500 USD, not the session's total of 1000 USD/) });
    expect(await provider.authorize({ ...paid, amount: 1500n, reference })).toEqual({ kind: 'approved', reference });
    await expect(provider.updatePayment('shop', reference, 1200n, 'USD')).rejects.toBeInstanceOf(InvalidStateError);
  });

  it('asks for authentication with the URL when the buyer\'s card needs 3-D Secure', async () => {
    const paid = subject();
    const { reference } = await provider.openPayment(paid);
    stripe.confirmByBuyer(reference, 'pm_card_threeDSecure2Required');
    expect(await provider.authorize({ ...paid, reference })).toMatchObject({ kind: 'requires_authentication', reference, metadata: { directory_server: 'visa' } });
  });
});

describe('the Stripe provider, agents\' tokens', () => {
  it('approves a PaymentMethod token with a confirmed manual-capture intent', async () => {
    const outcome = await provider.authorize(agentPays('pm_card_visa'));
    expect(outcome).toMatchObject({ kind: 'approved', reference: expect.stringMatching(/^pi_/) });
    expect(lastRequest(/^\/v1\/payment_intents$/).params).toMatchObject({ confirm: 'true', capture_method: 'manual', payment_method: 'pm_card_visa' });
  });

  it('charges a shared payment token through payment_method_data (held back from stripe-mock, whose 2020 spec predates it)', async () => {
    const token = stripe.grantSharedPaymentToken('pm_card_visa');
    expect(await provider.authorize(agentPays(token))).toMatchObject({ kind: 'approved' });
    const request = lastRequest(/^\/v1\/payment_intents$/);
    expect(request.params.payment_method_data).toEqual({ shared_payment_granted_token: token });
    expect(request.heldBack).toEqual(['payment_method_data[shared_payment_granted_token]']);
  });

  it.each([
    ['pm_card_chargeDeclined', /Your card was declined\. \(generic_decline\)/],
    ['pm_card_chargeDeclinedInsufficientFunds', /insufficient_funds/],
    ['pm_card_chargeDeclinedExpiredCard', /expired_card/],
  ])('declines %s with Stripe\'s decline code', async (token, reason) => {
    const outcome = await provider.authorize(agentPays(token));
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ kind: 'declined', reason: expect.stringMatching(reason) });
  });

  it('refuses a token Stripe could not charge before calling it', async () => {
    const before = stripe.requests.length;
    expect(await provider.authorize(agentPays('vt_01J8Z3WXYZ'))).toMatchObject({ kind: 'declined', reason: expect.stringMatching(/spt_…/) });
    expect(stripe.requests.length).toBe(before);
  });

  it('asks for 3-D Secure, then looks at the same intent when the agent comes back authenticated', async () => {
    const token = stripe.grantSharedPaymentToken('pm_card_threeDSecure2Required');
    const base = subject();
    const first = await provider.authorize(agentPays(token, undefined, base));
    expect(first).toMatchObject({
      kind: 'requires_authentication',
      reference: expect.stringMatching(/^pi_/),
      metadata: { acquirer_details: { acquirer_country: 'US', acquirer_merchant_id: ACCOUNT, merchant_name: 'shop' }, directory_server: 'visa' },
    });
    const reference = (first as { reference: string }).reference;
    expect(await provider.authorize(agentPays(token, 'authenticated', { ...base, idempotencyKey: 'another' }))).toMatchObject({ kind: 'requires_authentication', reference });
    stripe.authenticate(reference, true);
    expect(await provider.authorize(agentPays(token, 'authenticated', { ...base, idempotencyKey: 'again' }))).toEqual({ kind: 'approved', reference });
    expect(await provider.authorize({ ...agentPays(token, 'authenticated', base), reference })).toEqual({ kind: 'approved', reference });
    expect(stripe.count('create', reference)).toBe(1);
  });

  it('declines when the buyer failed 3-D Secure', async () => {
    const token = stripe.grantSharedPaymentToken('pm_card_authenticationRequired');
    const base = subject();
    const first = (await provider.authorize(agentPays(token, undefined, base))) as { reference: string };
    stripe.authenticate(first.reference, false);
    expect(await provider.authorize(agentPays(token, 'denied', base))).toMatchObject({ kind: 'declined', reason: expect.stringMatching(/payment_intent_authentication_failure/) });
  });
});

describe('the Stripe provider, moving money', () => {
  it('captures once however often it is asked with the same key, and takes an earlier capture as done', async () => {
    const reference = await authorized();
    const capture = move(reference);
    expect(await provider.capture(capture)).toEqual({ kind: 'succeeded', reference });
    expect(await provider.capture(capture)).toEqual({ kind: 'succeeded', reference });
    expect(await provider.capture(move(reference))).toEqual({ kind: 'succeeded', reference });
    expect(stripe.count('capture', reference)).toBe(1);
    expect(lastRequest(/\/capture$/)).toMatchObject({ account: ACCOUNT, params: { amount_to_capture: '1000' } });
  });

  it('reports a capture Stripe refused (the authorization lapsed) as failed', async () => {
    const reference = await authorized();
    stripe.failCapture(reference);
    expect(await provider.capture(move(reference))).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/canceled/) });
  });

  it('cancels an authorization, once', async () => {
    const reference = await authorized();
    const cancel = move(reference);
    expect(await provider.cancel(cancel)).toEqual({ kind: 'succeeded', reference });
    expect(await provider.cancel(move(reference))).toEqual({ kind: 'succeeded', reference });
    expect(stripe.count('cancel', reference)).toBe(1);
    expect(await provider.retrieve('shop', reference)).toMatchObject({ status: 'canceled', captured: 0n });
  });

  it('refunds part of a capture with Stripe\'s reason, ours in metadata, and retrieves the amounts', async () => {
    const reference = await authorized();
    await provider.capture(move(reference));
    const refund = move(reference, 300n, 'damaged');
    const outcome = await provider.refund(refund);
    expect(outcome).toMatchObject({ kind: 'succeeded', reference: expect.stringMatching(/^re_/) });
    expect(await provider.refund(refund)).toEqual(outcome);
    expect(lastRequest(/^\/v1\/refunds$/)).toMatchObject({
      idempotencyKey: refund.idempotencyKey,
      params: { payment_intent: reference, amount: '300', reason: 'requested_by_customer', metadata: { reason: 'damaged', merchant_id: 'shop' } },
    });
    expect(await provider.retrieve('shop', reference)).toEqual({ reference, status: 'captured', authorized: 1000n, captured: 1000n, refunded: 300n, currency: 'USD' });
    expect(await provider.refund(move(reference, 800n))).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/greater than unrefunded/) });
  });

  it('knows no payment it never made', async () => {
    expect(await provider.retrieve('shop', 'pi_unknown')).toBeNull();
  });
});

describe('the Stripe provider, Stripe out of reach', () => {
  it('throws PaymentUnreachableError on a timeout, a dropped connection, 500 and 429', async () => {
    const impatient = providerWith({ timeoutMs: 300, maxNetworkRetries: 0 });
    const reference = await authorized();
    // stripe-node retries a closed connection once even without retries: each fault hits twice.
    for (const kind of ['timeout', 'drop', 500, 429] as const) {
      stripe.fault({ kind, path: /\/capture$/, times: 2 });
      await expect(impatient.capture(move(reference)), String(kind)).rejects.toBeInstanceOf(PaymentUnreachableError);
      stripe.clearFaults();
    }
    expect(stripe.count('capture', reference)).toBe(0);
  });

  it('lets Stripe\'s client retry a 500 with the same key: the money moves once', async () => {
    const reference = await authorized();
    stripe.fault({ kind: 500, when: 'after', path: /\/capture$/ });
    expect(await provider.capture(move(reference))).toEqual({ kind: 'succeeded', reference });
    const keys = stripe.requests.filter((r) => r.path.endsWith('/capture') && r.path.includes(reference)).map((r) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(stripe.count('capture', reference)).toBe(1);
  });
});

describe('the Stripe provider and merchants without a Stripe account', () => {
  it('offers the tokenized card handler with the merchant\'s account, and nothing to a merchant without one', async () => {
    expect(await provider.handlers('shop')).toEqual([
      expect.objectContaining({ id: STRIPE_HANDLER_ID, psp: 'stripe', requires_delegate_payment: true, config: expect.objectContaining({ merchant_id: ACCOUNT, psp: 'stripe', environment: 'sandbox' }) }),
    ]);
    expect(await provider.handlers('other')).toEqual([]);
  });

  it('refuses to take a payment for it, naming the fix', async () => {
    const error = await provider.openPayment({ ...subject(), merchantId: 'other' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StripeAccountMissingError);
    expect((error as Error).message).toMatch(/gateway merchants payments other --stripe-account acct_…/);
    await expect(provider.authorize({ ...agentPays('pm_card_visa'), merchantId: 'other' })).rejects.toBeInstanceOf(StripeAccountMissingError);
  });
});
