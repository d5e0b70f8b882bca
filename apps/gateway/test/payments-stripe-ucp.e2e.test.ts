/**
 * A UCP platform pays with PAYMENT_PROVIDER=stripe (the Stripe double, every request validated by
 * stripe-mock), at both releases, every answer validated against the release's official schemas:
 * - discovery (/.well-known/ucp and each release's profile) and a connected merchant's checkout
 *   offer Stripe's handler (`card_tokenized`, the merchant's account in its config), never the test
 *   handler; a merchant without an account is offered none and its completion is refused (503);
 * - a tokenized instrument (`spt_…` shared payment token, `pm_…` PaymentMethod) completes: an order,
 *   authorized on the merchant's account for the total, captured exactly once;
 * - a declined card is the release's payment_failed, nothing ordered, nothing captured;
 * - 3-D Secure is UCP's escalation (requires_escalation, requires_3ds, continue_url), and the
 *   completion after the buyer authenticated goes through on the same PaymentIntent;
 * - a partial refund of the order through our API is a refund at Stripe for that amount;
 * - a checkout canceled before completion moves no money.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommerceGateway } from '@commerce-gateway/sdk';
import { stocked } from './support/checkout.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { call } from './support/http.js';
import { profileProblems, type UcpRelease } from './support/official-ucp.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { checkoutOf, errorsOf, token, ucpPlatform } from './support/ucp-platform.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let stripe: FakeStripe;
let gateway: TestGateway;
let profiles: ProfileServer;
let shopKey: string;
let otherKey: string;
let sdk: CommerceGateway;

const ACCOUNT = 'acct_1ShopConnected';
const HANDLER = 'card_tokenized';
const ebook = [{ item: { id: 'ebook-1' }, quantity: 2 }];
const buyer = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };

/** An instrument of Stripe's handler with a token credential, as each release sends it. */
function payWith(release: UcpRelease, value: string): Body {
  const base = { id: 'instr_1', handler_id: HANDLER, type: 'card', credential: token(value) };
  if (release === '2026-01-11') return { payment_data: { ...base, brand: 'visa', last_digits: '4242' } };
  return { payment: { instruments: [{ ...base, display: { brand: 'visa', last_digits: '4242' }, selected: true }] } };
}

/** The handlers a checkout answer offers: 2026-04-08's `ucp.payment_handlers` registry, 2026-01-11's `payment.handlers`. */
function offered(release: UcpRelease, checkout: Body): Body[] {
  if (release === '2026-01-11') return checkout.payment.handlers;
  return Object.values(checkout.ucp.payment_handlers ?? {}).flat();
}

const intentOf = (sessionId: string) => [...stripe.state.intents.values()].find((intent) => intent.metadata.session_id === sessionId);
const totalOf = (checkout: Body): number => checkout.totals.find((t: Body) => t.type === 'total').amount;

beforeAll(async () => {
  stripe = await startFakeStripe();
  gateway = await startTestGateway({
    env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51PlatformKey', STRIPE_WEBHOOK_SECRET: 'whsec_testsecret0123', STRIPE_API_URL: stripe.url },
  });
  const product = stocked('ebook', [{ sku: 'ebook-1', price: 12, quantity: 500, requires_shipping: false, taxable: false }]);
  await gateway.importProducts('shop', [product]);
  await gateway.importProducts('other', [product]);
  await gateway.services.paymentAccounts.set('shop', ACCOUNT);
  shopKey = await gateway.createKey({ merchantIds: ['shop'] });
  otherKey = await gateway.createKey({ merchantIds: ['other'] });
  sdk = new CommerceGateway({ apiKey: shopKey, baseUrl: gateway.url, maxRetries: 0 });
  profiles = await startProfileServer();
  for (const release of ['2026-04-08', '2026-01-11'] as const) profiles.route(`/platform/${release}`, json(shoppingPlatformProfile(release)));
}, 120_000);

afterAll(async () => {
  await profiles?.close();
  await gateway?.close();
  await stripe?.stop();
});

describe('UCP discovery with Stripe', () => {
  it.each(['2026-04-08', '2026-01-11'] as const)('the %s profile offers Stripe\'s handler, not the test handler', async (release) => {
    const path = release === '2026-04-08' ? '/.well-known/ucp' : `/.well-known/ucp/${release}`;
    const reply = await call(`${gateway.url}${path}`);
    expect(reply.status).toBe(200);
    expect(profileProblems(release, reply.body)).toEqual([]);
    const handlers: Body[] = release === '2026-01-11' ? reply.body.payment.handlers : Object.values(reply.body.ucp.payment_handlers).flat();
    expect(handlers.map((handler) => handler.id)).toEqual([HANDLER]);
    expect(JSON.stringify(reply.body)).not.toContain('mock_payment_handler');
  });
});

describe.each(['2026-04-08', '2026-01-11'] as const)('UCP %s with Stripe', (release) => {
  const agent = (key = shopKey) => ucpPlatform({ gatewayUrl: gateway.url, key, profile: `${profiles.url}/platform/${release}` });
  const ready = async (key = shopKey) => checkoutOf(release, await agent(key).create({ line_items: ebook, buyer }), 201);

  it('offers Stripe\'s handler with the merchant\'s account; a merchant without one is offered none and refused at completion', async () => {
    const created = await ready();
    expect(offered(release, created)).toEqual([expect.objectContaining({ id: HANDLER, config: expect.objectContaining({ merchant_id: ACCOUNT, psp: 'stripe' }) })]);
    const without = await ready(otherKey);
    expect(offered(release, without)).toEqual([]);
    const refused = await agent(otherKey).complete(without.id, payWith(release, stripe.grantSharedPaymentToken()));
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    expect(JSON.stringify(refused.body)).toMatch(/Merchant other cannot take payments/);
    expect(checkoutOf(release, await agent(otherKey).get(without.id)).order).toBeUndefined();
  });

  it.each([['a shared payment token (spt_…)', 'spt'], ['a PaymentMethod (pm_…)', 'pm']])('completes with %s: authorized on the account for the total, captured once', async (_name, kind) => {
    const created = await ready();
    const value = kind === 'spt' ? stripe.grantSharedPaymentToken('pm_card_visa') : 'pm_card_visa';
    const paid = checkoutOf(release, await agent().complete(created.id, payWith(release, value)));
    expect(paid).toMatchObject({ status: 'completed', order: { id: expect.stringMatching(/^ord_/) } });
    expect(JSON.stringify(paid)).not.toContain(value);
    const intent = intentOf(created.id)!;
    expect(intent).toMatchObject({ account: ACCOUNT, amount: totalOf(created), capture_method: 'manual' });
    await expect.poll(() => stripe.count('capture', intent.id)).toBe(1);
    expect(stripe.count('create', intent.id)).toBe(1);
  });

  it('a declined card is the release\'s payment_failed: nothing ordered, nothing captured', async () => {
    const created = await ready();
    const declined = checkoutOf(release, await agent().complete(created.id, payWith(release, stripe.grantSharedPaymentToken('pm_card_chargeDeclined'))));
    expect(declined.order).toBeUndefined();
    expect(declined.status).not.toBe('completed');
    expect(errorsOf(declined)).toEqual([expect.objectContaining({ code: 'payment_failed', content: expect.stringMatching(/generic_decline/) })]);
    const intent = intentOf(created.id)!;
    expect(intent.status).toBe('requires_payment_method');
    expect(stripe.count('capture', intent.id)).toBe(0);
  });

  it('3-D Secure is UCP\'s escalation; after the buyer authenticated the completion goes through on the same PaymentIntent', async () => {
    const created = await ready();
    const spt = stripe.grantSharedPaymentToken('pm_card_threeDSecure2Required');
    const first = checkoutOf(release, await agent().complete(created.id, payWith(release, spt)));
    expect(first).toMatchObject({ status: 'requires_escalation', continue_url: expect.stringMatching(/^https?:\/\//) });
    expect(errorsOf(first)).toEqual([expect.objectContaining({ code: 'requires_3ds', severity: 'requires_buyer_input' })]);
    expect(first.order).toBeUndefined();
    expect(checkoutOf(release, await agent().get(created.id)).status).toBe('requires_escalation');
    const intent = intentOf(created.id)!;
    expect(intent.status).toBe('requires_action');
    stripe.authenticate(intent.id, true); // the buyer passed the challenge at continue_url
    const paid = checkoutOf(release, await agent().complete(created.id, payWith(release, spt)));
    expect(paid).toMatchObject({ status: 'completed', order: { id: expect.stringMatching(/^ord_/) } });
    expect(stripe.count('create', intent.id)).toBe(1);
    expect([...stripe.state.intents.values()].filter((i) => i.metadata.session_id === created.id)).toHaveLength(1);
    await expect.poll(() => stripe.count('capture', intent.id)).toBe(1);
  });

  it('a partial refund of the order through our API is a refund at Stripe for that amount', async () => {
    const created = await ready();
    const paid = checkoutOf(release, await agent().complete(created.id, payWith(release, stripe.grantSharedPaymentToken('pm_card_visa'))));
    const intent = intentOf(created.id)!;
    await expect.poll(() => stripe.count('capture', intent.id)).toBe(1);
    const refunded = await sdk.orders.refund(paid.order.id, { amount: 5, reason: 'damaged' });
    expect(refunded.refunds).toMatchObject([{ amount: 5, reason: 'damaged' }]);
    await expect.poll(() => stripe.count('refund', intent.id)).toBe(1);
    const request = stripe.requests.find((r) => r.path === '/v1/refunds' && r.params.payment_intent === intent.id)!;
    expect(request).toMatchObject({ account: ACCOUNT, params: { amount: '500' } });
    expect(intent.amount_refunded).toBe(500);
    await expect.poll(async () => (await sdk.orders.retrieve(paid.order.id)).payment).toMatchObject({ status: 'partially_refunded', refunded_amount: 5 });
  });

  it('a checkout canceled before completion moves no money', async () => {
    const created = await ready();
    const before = stripe.requests.length;
    const canceled = checkoutOf(release, await agent().cancel(created.id));
    expect(canceled.status).toBe('canceled');
    const after = checkoutOf(release, await agent().complete(created.id, payWith(release, stripe.grantSharedPaymentToken('pm_card_visa'))));
    expect(after).toMatchObject({ status: 'canceled' });
    expect(after.order).toBeUndefined();
    expect(intentOf(created.id)).toBeUndefined();
    expect(stripe.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
  });
});
