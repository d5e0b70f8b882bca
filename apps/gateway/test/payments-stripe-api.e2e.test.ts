/**
 * Our own API pays for real with PAYMENT_PROVIDER=stripe (the Stripe double): a session's
 * client_secret is its PaymentIntent's (on the merchant's connected account, manual capture, the
 * session's total); completion is refused until the buyer confirmed it with Stripe.js, then the
 * order is placed and the payment captured once.
 */
import { CommerceGateway } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let stripe: FakeStripe;
let gw: CommerceGateway;

beforeAll(async () => {
  stripe = await startFakeStripe();
  gateway = await startTestGateway({
    env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51PlatformKey', STRIPE_WEBHOOK_SECRET: 'whsec_testsecret0123', STRIPE_API_URL: stripe.url },
  });
  await gateway.importProducts('shop', [stocked('chair', [{ price: 40, quantity: 10 }])]);
  await gateway.services.paymentAccounts.set('shop', 'acct_1ShopConnected');
  gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['shop'] }), baseUrl: gateway.url, maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await stripe?.stop();
});

describe('our API with Stripe', () => {
  it('gives the session its PaymentIntent\'s client_secret, refuses completion until the buyer confirmed it, then orders and captures once', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], shipping_address: SF_ADDRESS, customer: { email: 'ada@example.com' } });
    const intentId = session.client_secret.split('_secret_')[0]!;
    const intent = stripe.intent(intentId);
    expect(intent).toMatchObject({ account: 'acct_1ShopConnected', capture_method: 'manual', currency: 'usd', client_secret: session.client_secret });
    expect(intent.metadata).toMatchObject({ merchant_id: 'shop', session_id: session.id });
    expect(intent.amount).toBe(Math.round(session.amounts.total * 100)); // USD: cents

    await expect(gw.checkoutSessions.complete(session.id)).rejects.toThrow(/not confirmed the payment yet/);
    stripe.confirmByBuyer(intentId); // Stripe.js on the merchant's page
    const completed = await gw.checkoutSessions.complete(session.id);
    expect(completed.order?.id).toEqual(expect.any(String));
    await expect.poll(() => stripe.count('capture', intentId)).toBe(1);
  });
});
