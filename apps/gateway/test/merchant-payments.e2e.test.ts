/**
 * Operators map merchants to Stripe connected accounts through the admin API (PUT/GET
 * /admin/merchants/{id}/payments, the account shown on the merchant, audit-logged), and every
 * gateway's Stripe provider follows at once (a cache dropped by NOTIFY): a merchant with an
 * account is offered Stripe's handler, one without none, and its payments are refused naming the fix.
 * On a real database (PostgreSQL with TEST_DATABASE_URL) and the Stripe double.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantPaymentAccounts } from '../src/merchants/merchant-payment-accounts.js';
import { MerchantStore } from '../src/merchants/merchant-store.js';
import type { PaymentProvider } from '../src/payments/payment-provider.js';
import { paymentProvider } from '../src/payments/providers.js';
import { StripeAccountMissingError } from '../src/payments/stripe/stripe-errors.js';
import { stocked } from './support/checkout.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let stripe: FakeStripe;
/** This gateway's provider, and another replica's (its own cache over the same database). */
let provider: PaymentProvider;
let replica: { accounts: MerchantPaymentAccounts; provider: PaymentProvider };
const op = { root: '', reader: '', rivalOnly: '' };

const admin = (token: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply> =>
  call(`${gateway.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}` } });
const put = (token: string, merchantId: string, account: string | null | number) =>
  admin(token, `/merchants/${merchantId}/payments`, { method: 'PUT', json: { stripe_account_id: account } });

beforeAll(async () => {
  stripe = await startFakeStripe();
  gateway = await startTestGateway({
    env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51PlatformKey', STRIPE_WEBHOOK_SECRET: 'whsec_testsecret0123', STRIPE_API_URL: stripe.url },
  });
  await gateway.importProducts('shop', [stocked('chair', [{ price: 40, quantity: 10 }])]);
  await gateway.importProducts('rival', [stocked('stool', [{ price: 15, quantity: 10 }])]);
  const { services, db, config } = gateway;
  await services.paymentAccounts.cache.listen(db);
  provider = paymentProvider('stripe', 'development', { stripe: config, stripeAccounts: (id) => services.paymentAccounts.stripeAccount(id) });
  const accounts = new MerchantPaymentAccounts(new MerchantStore(db));
  await accounts.cache.listen(db);
  replica = { accounts, provider: paymentProvider('stripe', 'development', { stripe: config, stripeAccounts: (id) => accounts.stripeAccount(id) }) };
  const operators = services.admin.operators;
  op.root = (await operators.create({ name: 'root', access: 'full', allMerchants: true })).token;
  op.reader = (await operators.create({ name: 'auditor', access: 'read', allMerchants: true })).token;
  op.rivalOnly = (await operators.create({ name: 'rival support', access: 'full', merchantIds: ['rival'] })).token;
}, 120_000);

afterAll(async () => {
  await replica?.accounts.cache.close();
  await gateway?.services.paymentAccounts.cache.close();
  await gateway?.close();
  await stripe?.stop();
});

const subject = (merchantId: string) => ({ merchantId, sessionId: 'cs_pay', amount: 4000n, currency: 'USD', idempotencyKey: `open:${merchantId}:${Date.now()}` });

describe('a merchant without a Stripe account', () => {
  it('is shown without one, offered no handler, and its payments are refused naming the fix', async () => {
    expect((await admin(op.root, '/merchants/shop/payments')).body).toEqual({ merchant_id: 'shop', stripe_account_id: null });
    expect(await provider.handlers('shop')).toEqual([]);
    expect(await replica.provider.handlers('shop')).toEqual([]); // cached: null
    const refused = await provider.openPayment(subject('shop')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StripeAccountMissingError);
    expect((refused as Error).message).toBe(
      'Merchant shop cannot take payments: it has no Stripe account. An operator connects one with `gateway merchants payments shop --stripe-account acct_…` or PUT /admin/merchants/shop/payments (docs/payments.md)',
    );
    expect(stripe.requests).toHaveLength(0);
  });
});

describe('PUT /admin/merchants/{merchant_id}/payments', () => {
  it('connects the account: shown on the merchant, audit-logged, and every gateway offers Stripe\'s handler at once', async () => {
    const reply = await put(op.root, 'shop', 'acct_1ShopConnected');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ merchant_id: 'shop', stripe_account_id: 'acct_1ShopConnected' });
    const merchants = (await admin(op.root, '/merchants')).body.items as { id: string; stripe_account_id: string | null }[];
    expect(merchants.find((m) => m.id === 'shop')?.stripe_account_id).toBe('acct_1ShopConnected');
    expect(merchants.find((m) => m.id === 'rival')?.stripe_account_id).toBeNull();
    const [entry] = (await admin(op.root, '/audit?limit=1')).body.items;
    expect(entry).toMatchObject({ operation: 'setMerchantPayments', target: 'acct_1ShopConnected', merchant_id: 'shop', outcome: 'succeeded', status: 200 });

    expect(await provider.handlers('shop')).toEqual([expect.objectContaining({ psp: 'stripe', config: expect.objectContaining({ merchant_id: 'acct_1ShopConnected' }) })]);
    // The other replica had cached "none": NOTIFY made it forget.
    await expect.poll(async () => (await replica.provider.handlers('shop')).length).toBe(1);
    const opened = await provider.openPayment(subject('shop'));
    expect(stripe.intent(opened!.reference).account).toBe('acct_1ShopConnected');
  });

  it('refuses what is not an account id, a read-only credential and another merchant\'s operator, each audited', async () => {
    for (const bad of ['acct_', 'pk_test_123456', 'acct_12345678/../x', 42]) {
      const reply = await put(op.root, 'shop', bad);
      expect(reply.status, String(bad)).toBe(400);
      expect(reply.body.error.type).toBe('invalid_request');
    }
    expect((await put(op.reader, 'shop', null)).status).toBe(403);
    expect((await put(op.rivalOnly, 'shop', null)).status).toBe(403);
    expect((await put(op.root, 'nosuch', 'acct_1NoMerchant')).status).toBe(404);
    expect((await admin(op.root, '/merchants/shop/payments')).body.stripe_account_id).toBe('acct_1ShopConnected');
    const [entry] = (await admin(op.root, '/audit?limit=1')).body.items;
    expect(entry).toMatchObject({ operation: 'setMerchantPayments', outcome: 'refused', status: 404 });
  });

  it('disconnects it with null: no handler any more, on every gateway', async () => {
    expect((await put(op.root, 'shop', null)).body).toEqual({ merchant_id: 'shop', stripe_account_id: null });
    expect(await provider.handlers('shop')).toEqual([]);
    await expect.poll(async () => (await replica.provider.handlers('shop')).length).toBe(0);
    await expect(replica.provider.authorize({ ...subject('shop'), reference: 'pi_1' })).rejects.toBeInstanceOf(StripeAccountMissingError);
  });
});
