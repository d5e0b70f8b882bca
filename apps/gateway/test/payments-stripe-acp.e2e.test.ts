/**
 * An agent pays through ACP with PAYMENT_PROVIDER=stripe (the Stripe double): the session offers
 * Stripe's handler for a merchant with a connected account, none for one without (its completion
 * refused); a shared payment token completes an order, charged on the merchant's account and
 * captured once; a decline is ACP's payment_declined; 3-D Secure is ACP's requires_3ds, and the
 * agent's return completes on the same PaymentIntent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpAgent, createBody, payWith, SF, type AcpAgent } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let stripe: FakeStripe;
let agent: AcpAgent;
let unconnected: AcpAgent;
const buyer = { buyer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } };

/** A session ready to pay: addressed, its first shipping option chosen. */
async function readySession(): Promise<{ id: string; totals: { type: string; amount: number }[] }> {
  const session = (await agent.create(createBody(['chair']))).body;
  const addressed = await agent.update(session.id, { fulfillment_details: { name: 'Ada Lovelace', email: 'ada@example.com', address: SF } });
  const option = addressed.body.fulfillment_options[0];
  return (await agent.update(session.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: option.id, item_ids: ['chair'] }] })).body;
}

beforeAll(async () => {
  stripe = await startFakeStripe();
  gateway = await startTestGateway({
    env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51PlatformKey', STRIPE_WEBHOOK_SECRET: 'whsec_testsecret0123', STRIPE_API_URL: stripe.url },
  });
  await gateway.importProducts('shop', [stocked('chair', [{ price: 40, quantity: 10 }])]);
  await gateway.importProducts('other', [stocked('stool', [{ price: 15, quantity: 10 }])]);
  await gateway.services.paymentAccounts.set('shop', 'acct_1ShopConnected');
  agent = acpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
  unconnected = acpAgent(gateway.url, await gateway.createKey({ merchantIds: ['other'] }));
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await stripe?.stop();
});

describe('ACP with Stripe', () => {
  it('offers Stripe\'s tokenized card handler with the merchant\'s account, and none without one', async () => {
    const session = (await agent.create(createBody(['chair'], { fulfillment_details: { address: SF } }))).body;
    expect(session.capabilities.payment.handlers).toEqual([
      expect.objectContaining({ id: 'card_tokenized', psp: 'stripe', requires_delegate_payment: true, config: expect.objectContaining({ merchant_id: 'acct_1ShopConnected' }) }),
    ]);
    const without = (await unconnected.create(createBody(['stool']))).body;
    expect(without.capabilities.payment.handlers).toEqual([]);
    const addressed = await unconnected.update(without.id, { fulfillment_details: { name: 'Ada Lovelace', email: 'ada@example.com', address: SF } });
    await unconnected.update(without.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: addressed.body.fulfillment_options[0].id, item_ids: ['stool'] }] });
    const refused = await unconnected.complete(without.id, payWith(stripe.grantSharedPaymentToken(), buyer));
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/merchant other/i);
  });

  it('completes with a shared payment token: authorized on the merchant\'s account for the total, then captured once', async () => {
    const session = await readySession();
    const token = stripe.grantSharedPaymentToken('pm_card_visa');
    const completed = await agent.complete(session.id, payWith(token, buyer));
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    const created = stripe.requests.find((r) => r.path === '/v1/payment_intents' && r.params.metadata && (r.params.metadata as Record<string, string>).session_id === session.id)!;
    expect(created).toMatchObject({ account: 'acct_1ShopConnected', params: { capture_method: 'manual', confirm: 'true' } });
    const intent = [...stripe.state.intents.values()].find((i) => i.metadata.session_id === session.id)!;
    const total = session.totals.find((t) => t.type === 'total')!.amount;
    expect(intent.amount).toBe(total);
    await expect.poll(() => stripe.count('capture', intent.id)).toBe(1);
  });

  it('declines a declined card in ACP\'s words, nothing ordered', async () => {
    const session = await readySession();
    const declined = await agent.complete(session.id, payWith(stripe.grantSharedPaymentToken('pm_card_chargeDeclined'), buyer));
    expect(declined.status).not.toBe(200);
    expect(declined.body, JSON.stringify(declined.body)).toMatchObject({ code: 'payment_declined', message: expect.stringMatching(/generic_decline/) });
  });

  it('asks for 3-D Secure as ACP does, and completes on the same PaymentIntent once the buyer authenticated', async () => {
    const session = await readySession();
    const token = stripe.grantSharedPaymentToken('pm_card_threeDSecure2Required');
    const first = await agent.complete(session.id, payWith(token, buyer));
    expect(first.body).toMatchObject({ code: 'requires_3ds', param: '$.authentication_result' });
    const waiting = await agent.get(session.id);
    expect(waiting.body.status).toBe('authentication_required');
    expect(waiting.body.authentication_metadata).toMatchObject({ directory_server: 'visa', acquirer_details: { acquirer_merchant_id: 'acct_1ShopConnected' } });
    const intent = [...stripe.state.intents.values()].find((i) => i.metadata.session_id === session.id)!;
    expect(intent.status).toBe('requires_action');
    stripe.authenticate(intent.id, true); // the buyer passed the challenge the agent showed
    const result = { outcome: 'authenticated', outcome_details: { three_ds_cryptogram: 'AbCdEfGhIjKlMnOpQrStUvWxY0=', electronic_commerce_indicator: '05', transaction_id: 'ds_1', version: '2.2.0' } };
    const completed = await agent.complete(session.id, payWith(token, { ...buyer, authentication_result: result }));
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(stripe.count('create', intent.id)).toBe(1);
    await expect.poll(() => stripe.count('capture', intent.id)).toBe(1);
  });
});
