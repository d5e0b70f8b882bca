/**
 * Our own API pays, through the SDK (issue 36). With PAYMENT_PROVIDER=stripe (the Stripe double,
 * every request validated by stripe-mock): a session opens a PaymentIntent whose client_secret is
 * the session's, its amount follows the total, completion refuses (402, nothing written) unless the
 * buyer confirmed it for exactly the total, the order captures it once after its commit, a partial
 * refund is paid back with its reason, and a canceled session releases it. With the test provider
 * SPEC's flow is unchanged (`demo_card` approves), and a declining token is a 402.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommerceGateway, PaymentError, type CheckoutSession } from '@commerce-gateway/sdk';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let stripe: FakeStripe;
let gateway: TestGateway;
let testGateway: TestGateway;
let gw: CommerceGateway;
let plain: CommerceGateway;

const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);
const intentOf = (session: CheckoutSession) => [...stripe.state.intents.values()].find((intent) => intent.metadata.session_id === session.id)!;
const operations = (db: TestGateway, sessionId: string) => db.db.prisma.paymentOperation.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' } });

beforeAll(async () => {
  stripe = await startFakeStripe();
  gateway = await startTestGateway({ env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51PlatformKey', STRIPE_WEBHOOK_SECRET: 'whsec_testsecret0123', STRIPE_API_URL: stripe.url } });
  await gateway.importProducts('shop', [stocked('chair', [{ price: 40, quantity: 50 }])]);
  await gateway.services.paymentAccounts.set('shop', 'acct_1ShopConnected');
  gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['shop'] }), baseUrl: gateway.url, maxRetries: 0 });
  testGateway = await startTestGateway();
  await testGateway.importProducts('shop', [stocked('chair', [{ price: 40, quantity: 50 }])]);
  plain = new CommerceGateway({ apiKey: await testGateway.createKey({ merchantIds: ['shop'] }), baseUrl: testGateway.url, maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await testGateway?.close();
  await stripe?.stop();
});

describe('our API with Stripe', () => {
  it('opens a PaymentIntent with the session (its client_secret), which follows the total', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], shipping_address: SF_ADDRESS });
    const intent = intentOf(session);
    expect(session.client_secret).toBe(intent.client_secret);
    expect(intent).toMatchObject({ amount: Math.round(session.amounts.total * 100), capture_method: 'manual' });
    const bigger = await gw.checkoutSessions.update(session.id, { items: [{ product_id: 'chair', quantity: 3 }] });
    expect(intentOf(bigger).amount).toBe(Math.round(bigger.amounts.total * 100));
  });

  it('pays: the buyer confirms on the merchant page, completion authorizes it for the total, the order captures it once', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair', quantity: 2 }], shipping_address: SF_ADDRESS });
    stripe.confirmByBuyer(intentOf(session).id);
    const completed = await gw.checkoutSessions.complete(session.id);
    expect(completed.status).toBe('completed');
    await expect.poll(() => stripe.count('capture', intentOf(session).id)).toBe(1);
    const order = await gw.orders.retrieve(completed.order!.id);
    expect(order.payment).toMatchObject({ provider: 'stripe', reference: intentOf(session).id, status: 'captured', captured_amount: session.amounts.total, currency: 'USD' });
    expect((await operations(gateway, session.id)).map((op) => [op.kind, op.state])).toEqual([['authorize', 'succeeded'], ['capture', 'succeeded']]);
  });

  it('refuses a payment the buyer has not confirmed (402), and writes nothing but the operation', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], shipping_address: SF_ADDRESS });
    const error = await refusal(gw.checkoutSessions.complete(session.id));
    expect(error).toBeInstanceOf(PaymentError);
    expect(error).toMatchObject({ status: 402, code: 'payment_declined' });
    expect((await gw.checkoutSessions.retrieve(session.id)).status).toBe('open');
    expect(await gateway.db.prisma.order.count({ where: { checkoutSessionId: session.id } })).toBe(0);
    expect((await operations(gateway, session.id)).map((op) => [op.kind, op.state])).toEqual([['authorize', 'failed']]);
  });

  it('declines a declined card (402 naming the reason), nothing ordered', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], shipping_address: SF_ADDRESS });
    stripe.confirmByBuyer(intentOf(session).id, 'pm_card_chargeDeclined');
    const error = await refusal(gw.checkoutSessions.complete(session.id));
    expect(error).toMatchObject({ status: 402, code: 'payment_declined' });
    expect(await gateway.db.prisma.order.count({ where: { checkoutSessionId: session.id } })).toBe(0);
  });

  it('refunds partially with the reason: Stripe pays it back, its refund id is kept, the payment shows it', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], shipping_address: SF_ADDRESS });
    stripe.confirmByBuyer(intentOf(session).id);
    const completed = await gw.checkoutSessions.complete(session.id);
    const refunded = await gw.orders.refund(completed.order!.id, { amount: 5, reason: 'damaged' });
    expect(refunded.refunds).toMatchObject([{ amount: 5, reason: 'damaged' }]);
    await expect.poll(() => stripe.count('refund', intentOf(session).id)).toBe(1);
    const refund = stripe.requests.find((r) => r.path === '/v1/refunds' && r.params.payment_intent === intentOf(session).id)!;
    expect(refund).toMatchObject({ account: 'acct_1ShopConnected', params: { amount: '500', reason: 'requested_by_customer' } });
    const order = await gw.orders.retrieve(completed.order!.id);
    expect(order.payment).toMatchObject({ status: 'partially_refunded', refunded_amount: 5 });
    const stored = await gateway.db.prisma.orderRefund.findUnique({ where: { id: refunded.refunds[0]!.id } });
    expect(stored!.reference).toMatch(/^re_/);
  });

  it('releases the PaymentIntent of a canceled session, after the cancel committed', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], shipping_address: SF_ADDRESS });
    await gw.checkoutSessions.cancel(session.id);
    await expect.poll(() => stripe.count('cancel', intentOf(session).id)).toBe(1);
    expect((await operations(gateway, session.id)).map((op) => [op.kind, op.state])).toEqual([['cancel', 'succeeded']]);
  });
});

describe('our API with the test provider', () => {
  it('pays with demo_card as SPEC shows, captured after the commit; refunds partially; cancels', async () => {
    const session = await plain.checkoutSessions.create({ items: [{ product_id: 'chair' }], shipping_address: SF_ADDRESS });
    expect(session.payment_method).toBe('demo_card');
    const completed = await plain.checkoutSessions.complete(session.id);
    expect(completed.status).toBe('completed');
    const refunded = await plain.orders.refund(completed.order!.id, { amount: 1.5, reason: 'other' });
    expect(refunded.refunded_amount).toBe(1.5);
    expect((await plain.orders.retrieve(completed.order!.id)).payment).toMatchObject({ provider: 'test', status: 'partially_refunded', refunded_amount: 1.5 });
    const other = await plain.checkoutSessions.create({ items: [{ product_id: 'chair' }] });
    expect((await plain.checkoutSessions.cancel(other.id)).status).toBe('canceled');
  });

  it('declines a declining payment_method token (402), nothing ordered', async () => {
    const session = await plain.checkoutSessions.create({ items: [{ product_id: 'chair' }], shipping_address: SF_ADDRESS, payment_method: 'spt_test_decline' });
    const error = await refusal(plain.checkoutSessions.complete(session.id));
    expect(error).toBeInstanceOf(PaymentError);
    expect(error).toMatchObject({ status: 402, code: 'payment_declined' });
    expect((await plain.checkoutSessions.retrieve(session.id)).status).toBe('open');
  });
});
