/**
 * Refunds move money after their transaction (issue 36): the refund and its payment operation are
 * recorded, then the provider is asked. One it finally refuses is taken back — the order keeps its
 * refunds and status, `order.updated` tells of it, and its payment operation stays, failed; the
 * request gets 502 as before. With no provider configured nothing is written (503). One the
 * provider cannot reach stays, pending, for the worker. On a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProvider } from '../src/payments/payment-provider.js';
import { PaymentUnreachableError } from '../src/payments/payment-errors.js';
import { PaymentOperations } from '../src/payments/operations/payment-operations.js';
import { PaymentOperationStore } from '../src/payments/operations/payment-operation-store.js';
import { TestPaymentProvider } from '../src/payments/test-payment-provider.js';
import { PaymentProviderNotConfiguredError, UnconfiguredPaymentProvider } from '../src/payments/unconfigured-payment-provider.js';
import { UpstreamError } from '../src/kernel/errors.js';
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
function orders(payments: PaymentProvider): OrderService {
  let service: OrderService;
  const operations = new PaymentOperations(new PaymentOperationStore(db), payments, new OrderStore(db), { onRefundFailed: (op, reason) => service.refundRefused(op, reason) });
  service = new OrderService(db, new OrderStore(db), new OutboxStore(), operations);
  return service;
}
const events = () => db.prisma.webhookEvent.findMany({ where: { merchantId: 'shop' }, orderBy: { createdAt: 'asc' } });
const operationsOf = (kind: 'refund') => db.prisma.paymentOperation.findMany({ where: { sessionId: 'cs_refund', kind }, orderBy: { createdAt: 'asc' } });

describe('a refund the provider does not make', () => {
  it('refused by the provider → 502; the refund is taken back, order.updated tells of it, the refused operation stays', async () => {
    const before = await orders(refusing).get('shop', 'ord_refund');
    const queued = (await events()).length;
    const error = await orders(refusing).refund('shop', 'ord_refund', { amount: 5, reason: 'damaged' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toMatch(/The payment provider refusing refused the refund: the charge was disputed/);
    const after = await orders(refusing).get('shop', 'ord_refund');
    expect({ ...after, updated_at: before.updated_at }).toEqual(before);
    expect((await events()).slice(queued).map((e) => e.type)).toEqual(['order.refunded', 'order.updated']);
    const [refused] = await operationsOf('refund');
    expect(refused).toMatchObject({ state: 'failed', lastError: 'the charge was disputed', amount: 500n, attempts: 1 });
    await db.prisma.paymentOperation.deleteMany({});
  });

  it('no provider configured → 503, and nothing changes', async () => {
    const none = new UnconfiguredPaymentProvider();
    const before = await orders(none).get('shop', 'ord_refund');
    const queued = (await events()).length;
    for (const change of [() => orders(none).refund('shop', 'ord_refund', { amount: 5, reason: 'damaged' }), () => orders(none).cancel('shop', 'ord_refund')]) {
      const error = await change().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentProviderNotConfiguredError);
      expect((error as Error).message).toMatch(/No payment provider is configured/);
    }
    expect(await orders(none).get('shop', 'ord_refund')).toEqual(before);
    expect((await events()).length).toBe(queued);
    expect(await operationsOf('refund')).toEqual([]);
  });

  it('unreachable → the refund stays recorded, its operation pending with a backoff, for the worker', async () => {
    const unreachable: PaymentProvider = Object.assign(new TestPaymentProvider(), {
      refund: async () => {
        throw new PaymentUnreachableError('connect ECONNREFUSED');
      },
    });
    const order = await orders(unreachable).refund('shop', 'ord_refund', { amount: 1, reason: 'other' });
    expect(order.refunds.at(-1)).toMatchObject({ amount: 1, reason: 'other' });
    const [pending] = await operationsOf('refund');
    expect(pending).toMatchObject({ state: 'pending', lastError: 'connect ECONNREFUSED', attempts: 1 });
    expect(pending!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    // The worker's retry, with the same key, pays it back and writes the PSP's refund id on the order's refund.
    const recorded = await new PaymentOperations(new PaymentOperationStore(db), new TestPaymentProvider(), new OrderStore(db)).run((await new PaymentOperationStore(db).ofSessions(['cs_refund'])).find((op) => op.kind === 'refund')!);
    expect(recorded).toMatchObject({ state: 'succeeded', reference: expect.stringMatching(/^re_test_/) });
    const refund = await db.prisma.orderRefund.findUnique({ where: { id: order.refunds.at(-1)!.id } });
    expect(refund!.reference).toBe((recorded as { reference: string }).reference);
    await db.prisma.orderRefund.deleteMany({});
    await db.prisma.paymentOperation.deleteMany({});
  });

  it('goes through with a provider that pays back: partial, with its reason, the refund id written back', async () => {
    const order = await orders(new TestPaymentProvider()).refund('shop', 'ord_refund', { amount: 5, reason: 'damaged' });
    expect(order).toMatchObject({ refunded_amount: 5, refunds: [{ amount: 5, reason: 'damaged' }], status: 'created' });
    const [done] = await operationsOf('refund');
    expect(done).toMatchObject({ state: 'succeeded', amount: 500n, request: { reason: 'damaged' }, reference: expect.stringMatching(/^re_test_/) });
    expect((await db.prisma.orderRefund.findFirst({ where: { orderId: 'ord_refund' } }))!.reference).toBe(done!.reference);
  });
});
