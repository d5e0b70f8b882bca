/**
 * Payment operations on a real database (issue 36): every movement of money recorded before the
 * PSP is asked, its outcome after; a completion whose transaction fails releases its authorization;
 * a decline writes nothing but its operation; a capture the PSP could not take is retried by the
 * worker with the same key; authorizations a crash left behind are captured (their order exists)
 * or released; several workers never run one operation twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentDeclinedError, PaymentUnreachableError } from '../src/payments/payment-errors.js';
import type { MoveOutcome, PaymentMove, PaymentProvider } from '../src/payments/payment-provider.js';
import { TestPaymentProvider } from '../src/payments/test-payment-provider.js';
import { PaymentOperations } from '../src/payments/operations/payment-operations.js';
import { PaymentOperationStore } from '../src/payments/operations/payment-operation-store.js';
import { PaymentWorker } from '../src/payments/operations/payment-worker.js';
import { OrderStore } from '../src/orders/order-store.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ price: 25, quantity: 1000 }])]);
}, 60_000);
afterAll(() => gateway?.close());

const prisma = () => gateway.db.prisma;
const opsOf = async (sessionId: string) =>
  (await prisma().paymentOperation.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' } })).map((op) => ({ kind: op.kind, state: op.state, attempts: op.attempts }));
const openSession = async () => (await gateway.services.checkout.create('shop', { items: [{ product_id: 'chair' }], shipping_address: SF_ADDRESS })).id;
const payWith = (token: string) => ({ handlerId: 'card_tokenized', instrument: { type: 'card', credential: { type: 'spt', token } } });

/** A provider counting its moves by key, that fails as told. */
function countingProvider(fail: { capture?: number } = {}): PaymentProvider & { moves: Map<string, number> } {
  const moves = new Map<string, number>();
  let captureFailures = fail.capture ?? 0;
  const count = (move: PaymentMove): MoveOutcome => {
    moves.set(move.idempotencyKey, (moves.get(move.idempotencyKey) ?? 0) + 1);
    return { kind: 'succeeded', reference: move.reference };
  };
  return Object.assign(new TestPaymentProvider(), {
    moves,
    capture: async (move: PaymentMove) => {
      if (captureFailures-- > 0) throw new PaymentUnreachableError('connect ECONNREFUSED 127.0.0.1:443');
      return count(move);
    },
    cancel: async (move: PaymentMove) => count(move),
  });
}

describe('completion', () => {
  it('records the authorization, then the order with its capture, and captures after the commit', async () => {
    const id = await openSession();
    await gateway.services.checkout.complete('shop', id);
    expect(await opsOf(id)).toEqual([
      { kind: 'authorize', state: 'succeeded', attempts: 0 },
      { kind: 'capture', state: 'succeeded', attempts: 1 },
    ]);
  });

  it('releases the authorization when the order\'s transaction fails, and orders nothing', async () => {
    const id = await openSession();
    await expect(gateway.services.checkout.complete('shop', id, async () => { throw new Error('crash before commit'); })).rejects.toThrow('crash before commit');
    expect(await prisma().order.count({ where: { checkoutSessionId: id } })).toBe(0);
    expect(await opsOf(id)).toEqual([
      { kind: 'authorize', state: 'succeeded', attempts: 1 },
      { kind: 'cancel', state: 'succeeded', attempts: 1 },
    ]);
    // Completed again: a new authorization, under a new key (the first was released).
    await gateway.services.checkout.complete('shop', id);
    expect((await opsOf(id)).map((op) => `${op.kind}:${op.state}`)).toEqual(['authorize:succeeded', 'cancel:succeeded', 'authorize:succeeded', 'capture:succeeded']);
  });

  it('writes nothing but the operation when the PSP declines (ACP)', async () => {
    const record = await gateway.services.checkout.open('shop', { items: [{ product_id: 'chair' }], shippingAddress: SF_ADDRESS, fulfillmentOptionId: 'standard' });
    await expect(gateway.services.checkout.pay('shop', record.session.id, payWith('spt_test_decline'))).rejects.toBeInstanceOf(PaymentDeclinedError);
    expect(await prisma().order.count({ where: { checkoutSessionId: record.session.id } })).toBe(0);
    expect(await opsOf(record.session.id)).toEqual([{ kind: 'authorize', state: 'failed', attempts: 1 }]);
    const op = await prisma().paymentOperation.findFirst({ where: { sessionId: record.session.id } });
    expect(op!.lastError).toMatch(/declined/);
  });
});

describe('the worker', () => {
  it('retries a capture the PSP could not be asked, with the same key, until it is taken', async () => {
    const provider = countingProvider({ capture: 1 });
    const operations = new PaymentOperations(new PaymentOperationStore(gateway.db), provider, new OrderStore(gateway.db), { retryBaseMs: 1 });
    const id = await openSession();
    const authorized = await operations.authorize({ merchantId: 'shop', sessionId: id, amount: 2500n, currency: 'USD' }, { paymentMethod: 'demo_card' }, PaymentOperations.key(id, 'retry'));
    if (authorized === 'settled') throw new Error('not authorized');
    // As the order's transaction records it, then the capture after the commit: unreachable.
    const capture = await operations.store.settleWithCapture(authorized.operation, authorized.reference, { ...operations.captureOf(authorized, 'ord_none'), nextAttemptAt: new Date() }, new Date());
    const unreachable = await operations.run(capture!);
    expect(unreachable).toMatchObject({ state: 'pending', error: /ECONNREFUSED/ });
    if (unreachable.state !== 'pending') throw new Error('not left pending');
    // The worker at the moment the retry falls due (its clock), rather than after a pause long enough for it.
    await new PaymentWorker(operations, { now: () => unreachable.retryAt }).drain();
    const [, captured] = await prisma().paymentOperation.findMany({ where: { sessionId: id }, orderBy: { createdAt: 'asc' } });
    expect(captured).toMatchObject({ kind: 'capture', state: 'succeeded', attempts: 2 });
    expect(provider.moves.get(captured!.idempotencyKey)).toBe(1);
  });

  it('resolves authorizations a crash left: released without an order (the PSP asked again with the same key), captured with one', async () => {
    const provider = countingProvider();
    const operations = new PaymentOperations(new PaymentOperationStore(gateway.db), provider, new OrderStore(gateway.db), { leaseMs: 1 });
    // Crashed after recording the authorization: its outcome unknown, no order.
    const lost = await openSession();
    const claim = await operations.store.claimAuthorize({ merchantId: 'shop', sessionId: lost, kind: 'authorize', provider: 'test', amount: 2500n, currency: 'USD', idempotencyKey: PaymentOperations.key(lost, 'crash'), request: { paymentMethod: 'demo_card' }, nextAttemptAt: new Date(Date.now() - 1) }, new Date());
    expect('claimed' in claim).toBe(true);
    // Crashed after the order committed, before its capture ran: the worker captures it.
    const ordered = await openSession();
    await gateway.services.checkout.complete('shop', ordered);
    await prisma().paymentOperation.updateMany({ where: { sessionId: ordered, kind: 'capture' }, data: { state: 'pending', nextAttemptAt: new Date(Date.now() - 1) } });
    await new PaymentWorker(operations).drain();
    expect((await opsOf(lost)).map((op) => `${op.kind}:${op.state}`)).toEqual(['authorize:succeeded', 'cancel:succeeded']);
    expect((await opsOf(ordered)).map((op) => `${op.kind}:${op.state}`)).toEqual(['authorize:succeeded', 'capture:succeeded']);
  });

  it('runs each due operation once with several workers at once (row locks, SKIP LOCKED)', async () => {
    const provider = countingProvider();
    const store = new PaymentOperationStore(gateway.db);
    const operations = new PaymentOperations(store, provider, new OrderStore(gateway.db));
    const past = new Date(Date.now() - 1000);
    for (let i = 0; i < 30; i++) {
      await gateway.db.transaction((tx) =>
        store.insert(tx, { merchantId: 'shop', sessionId: `cs_many_${i}`, kind: 'cancel', provider: 'test', amount: 100n, currency: 'USD', reference: `pay_${i}`, idempotencyKey: `many_${i}`, nextAttemptAt: past }, new Date()),
      );
    }
    const workers = Array.from({ length: 4 }, () => new PaymentWorker(operations, { batchSize: 3 }));
    await Promise.all(workers.map((worker) => worker.drain()));
    expect([...provider.moves.entries()].filter(([key]) => key.startsWith('many_')).map(([, n]) => n)).toEqual(Array(30).fill(1));
    expect(await prisma().paymentOperation.count({ where: { idempotencyKey: { startsWith: 'many_' }, state: 'succeeded' } })).toBe(30);
  });
});
