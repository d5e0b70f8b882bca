import { describe, expect, it } from 'vitest';
import { TEST_HANDLER_ID, TestPaymentProvider } from './test-payment-provider.js';

const provider = new TestPaymentProvider();
const pay = (token: string, outcome?: string) =>
  provider.authorize({
    instruction: {
      handlerId: TEST_HANDLER_ID,
      instrument: { type: 'card', credential: { type: 'spt', token } },
      ...(outcome ? { authentication: { outcome } } : {}),
    },
    merchantId: 'shop',
    sessionId: 'cs_1',
    amount: 1000n,
    currency: 'USD',
    idempotencyKey: 'cs_1:x',
  });

describe('the test payment provider', () => {
  it.each([
    ['spt_test_approve', undefined, 'approved'],
    ['spt_test_decline', undefined, 'declined'],
    ['spt_test_3ds', undefined, 'requires_authentication'],
    ['spt_test_3ds', 'authenticated', 'approved'],
    ['spt_test_3ds', 'attempt_acknowledged', 'approved'],
    ['spt_test_3ds', 'denied', 'declined'],
    ['spt_123', undefined, 'approved'],
  ])('%s (authentication %s) is %s', async (token, outcome, kind) => {
    expect((await pay(token, outcome)).kind).toBe(kind);
  });

  it('declares one tokenized-card handler naming the merchant and its test tokens', async () => {
    const [handler] = await provider.handlers('shop');
    expect(handler).toMatchObject({ id: TEST_HANDLER_ID, name: 'dev.acp.tokenized.card', psp: 'test', config: { merchant_id: 'shop', test_tokens: ['spt_test_approve', 'spt_test_decline', 'spt_test_3ds'] } });
  });

  it('pays any refund back, once per idempotency key', async () => {
    const refund = (key: string) => provider.refund({ merchantId: 'shop', reference: 'pay_test_1', amount: 500n, currency: 'USD', reason: 'damaged', idempotencyKey: key });
    const first = await refund('ord_1:re_1');
    expect(first).toMatchObject({ kind: 'succeeded', reference: expect.stringMatching(/^re_test_/) });
    expect(await refund('ord_1:re_1')).toEqual(first);
    expect(await refund('ord_1:re_2')).not.toEqual(first);
  });
});

describe('the unconfigured payment provider', () => {
  it('refuses a refund, saying no provider is configured', async () => {
    const { UnconfiguredPaymentProvider, PaymentProviderNotConfiguredError } = await import('./unconfigured-payment-provider.js');
    const refund = new UnconfiguredPaymentProvider().refund();
    await expect(refund).rejects.toBeInstanceOf(PaymentProviderNotConfiguredError);
    await expect(refund).rejects.toThrow(/No payment provider is configured: this gateway cannot pay money back/);
  });
});
