/**
 * A refund the payment provider does not make changes nothing: with a provider that refuses, and
 * with none configured, the order keeps its refunds, status and updated_at, and no event is queued
 * (the provider is called inside the change's transaction). On a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProvider } from '../src/payments/payment-provider.js';
import { TestPaymentProvider } from '../src/payments/test-payment-provider.js';
import { PaymentProviderNotConfiguredError, UnconfiguredPaymentProvider } from '../src/payments/unconfigured-payment-provider.js';
import { UpstreamError } from '../src/errors.js';
import { OrderService } from '../src/orders/order-service.js';
import { OrderStore } from '../src/orders/order-store.js';
import { OutboxStore } from '../src/webhooks/outbox-store.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
const created = new Date('2026-11-02T14:09:42.000Z');

beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.merchant.create({ data: { id: 'shop', name: 'Shop' } });
  await db.prisma.checkoutSession.create({
    data: {
      id: 'cs_refund', merchantId: 'shop', status: 'completed', currency: 'EUR', paymentMethod: 'demo_card', clientSecret: 'cs_refund_secret',
      shippingMethod: 'standard', shippingAmount: 500n, taxRate: 0, taxAmount: 0n, subtotal: 2400n, total: 2900n, createdAt: created,
      lineItems: { create: [{ position: 0, productId: 'lamp', variantSku: 'lamp-1', quantity: 1, title: 'Lamp', unitAmount: 2400n, subtotal: 2400n, requiresShipping: true, taxable: true }] },
      order: { create: { id: 'ord_refund', merchantId: 'shop', currency: 'EUR', total: 2900n, createdAt: created, updatedAt: created } },
    },
  });
}, 60_000);
afterAll(() => db?.close());

const refusing: PaymentProvider = Object.assign(new TestPaymentProvider(), {
  name: 'refusing',
  refund: async () => ({ kind: 'failed' as const, reason: 'the charge was disputed' }),
});
const orders = (payments: PaymentProvider) => new OrderService(db, new OrderStore(db), new OutboxStore(), payments);
const events = () => db.prisma.webhookEvent.count({ where: { merchantId: 'shop' } });

describe('a refund the provider does not make', () => {
  it.each<[string, PaymentProvider, new (...args: never[]) => Error, RegExp]>([
    ['refused by the provider → 502', refusing, UpstreamError, /The payment provider refusing refused the refund: the charge was disputed/],
    ['no provider configured → 503', new UnconfiguredPaymentProvider(), PaymentProviderNotConfiguredError, /No payment provider is configured/],
  ])('%s, and nothing changes', async (_name, payments, type, message) => {
    const before = await orders(payments).get('shop', 'ord_refund');
    const queued = await events();
    for (const change of [() => orders(payments).refund('shop', 'ord_refund', { amount: 5, reason: 'damaged' }), () => orders(payments).cancel('shop', 'ord_refund')]) {
      const error = await change().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect((error as Error).message).toMatch(message);
    }
    expect(await orders(payments).get('shop', 'ord_refund')).toEqual(before);
    expect(await events()).toBe(queued);
  });

  it('goes through with a provider that pays back', async () => {
    const order = await orders(new TestPaymentProvider()).refund('shop', 'ord_refund', { amount: 5, reason: 'damaged' });
    expect(order).toMatchObject({ refunded_amount: 5, refunds: [{ amount: 5, reason: 'damaged' }], status: 'created' });
    expect(await events()).toBe(1);
  });
});
