/**
 * Applies a PSP's webhook event to our order, in one transaction: the event's id claimed (a
 * duplicate changes nothing), the order found and locked, the fact recorded (a dispute here, the
 * payment's state by the PaymentStateRecorder), the order's derived status written and — when the
 * order changed — our own event queued in the outbox for the merchant's endpoints:
 * `order.disputed` for a dispute first heard of, `order.refunded` for a refund made at the PSP,
 * `order.updated` for anything else. An event not about one of our orders, or sent from another
 * account than the merchant's, is ignored (logged by the caller) and not recorded, so that a
 * redelivery is judged afresh.
 */
import type { Logger } from 'pino';
import type { Order, WebhookEventType } from '../../contract/types.js';
import type { Tx, UnitOfWork } from '../../db/transaction.js';
import { deriveStatus } from '../../orders/order-progress.js';
import { toOrder } from '../../orders/order-mapper.js';
import type { OrderRecord } from '../../orders/order-record.js';
import type { OrderStore } from '../../orders/order-store.js';
import type { OutboxStore } from '../../webhooks/outbox-store.js';
import type { DisputeStore } from '../../payments/disputes/dispute-store.js';
import type { PaymentEvent, PaymentEventOutcome, PaymentEventTarget } from './payment-event.js';
import type { PaymentOrder, PaymentOrderStore } from './payment-order-store.js';
import type { PaymentStateRecorder } from './payment-state-recorder.js';
import type { ProviderEventStore } from './provider-event-store.js';

export interface PaymentEventDeps {
  db: UnitOfWork;
  handled: ProviderEventStore;
  paymentOrders: PaymentOrderStore;
  orders: Pick<OrderStore, 'lock' | 'touch'>;
  disputes: Pick<DisputeStore, 'upsert'>;
  outbox: OutboxStore;
  recorder: PaymentStateRecorder;
  /** The merchant's Order as events carry it (default: the order mapper's). */
  toOrder?: (tx: Tx, record: OrderRecord) => Promise<Order>;
  logger?: Logger;
}

type Found = { order: PaymentOrder } | { ignored: string };

export class PaymentEventService {
  constructor(private readonly deps: PaymentEventDeps) {}

  apply(event: PaymentEvent): Promise<PaymentEventOutcome> {
    return this.deps.db.transaction(async (tx): Promise<PaymentEventOutcome> => {
      const found = await this.find(tx, event.target);
      if ('ignored' in found) return { result: 'ignored', reason: found.ignored };
      if (!(await this.deps.handled.claim(tx, event))) return { result: 'duplicate' };
      return this.applyTo(tx, found.order, event);
    });
  }

  /**
   * Records a fact learnt otherwise than from a webhook (reconciliation: a refund made at the PSP
   * that no event reported), as an event would: the order changed, its status, our event.
   */
  recordFact(order: { merchantId: string; orderId: string }, fact: PaymentEvent['fact'], source: { id: string; provider: string }): Promise<PaymentEventOutcome> {
    const event = { ...source, type: `reconciliation.${fact.kind}`, createdAt: new Date(), target: { reference: null, merchantId: null, sessionId: null, account: null }, fact };
    return this.deps.db.transaction((tx) => this.applyTo(tx, order, event));
  }

  private async applyTo(tx: Tx, target: { merchantId: string; orderId: string }, event: PaymentEvent): Promise<PaymentEventOutcome> {
    const { orders, outbox } = this.deps;
    const { orderId, merchantId } = target;
    const record = await orders.lock(tx, merchantId, orderId);
    if (!record) return { result: 'ignored', reason: `order ${orderId} is gone` };
    const type = await this.record(tx, record, event);
    if (!type) return { result: 'applied', orderId, emitted: null };
    const changed = (await orders.lock(tx, merchantId, orderId))!;
    await orders.touch(tx, orderId, deriveStatus(changed));
    const order = await this.orderOf(tx, (await orders.lock(tx, merchantId, orderId))!);
    const emitted = await outbox.enqueue(tx, { merchantId, type, object: order as unknown as Record<string, unknown> });
    return { result: 'applied', orderId, emitted: emitted.id };
  }

  /** Records the event's fact; the type of our event when the order changed, null when nothing did. */
  private async record(tx: Tx, record: OrderRecord, event: PaymentEvent): Promise<WebhookEventType | null> {
    const { fact } = event;
    if (fact.kind === 'disputed') {
      const { dispute } = fact;
      const change = await this.deps.disputes.upsert(tx, {
        ...dispute,
        currency: dispute.currency.toUpperCase(),
        merchantId: record.session.merchantId,
        orderId: record.session.order.id,
        updatedAt: event.createdAt,
      });
      return change === 'inserted' ? 'order.disputed' : change === 'updated' ? 'order.updated' : null;
    }
    const changed = await this.deps.recorder.record(tx, record, fact, event);
    if (!changed) return null;
    return fact.kind === 'refunded' ? 'order.refunded' : 'order.updated';
  }

  /**
   * The order the event is about: by the payment's metadata (checked against its reference), else
   * by the reference alone; then the account must be the merchant's connected account.
   */
  private async find(tx: Tx, target: PaymentEventTarget): Promise<Found> {
    const { paymentOrders } = this.deps;
    let order: PaymentOrder | null;
    if (target.merchantId && target.sessionId) {
      order = await paymentOrders.bySession(tx, target.merchantId, target.sessionId, target.reference);
      if (!order) return { ignored: `session ${target.sessionId} of merchant ${target.merchantId} has no order` };
      if (!order.referenceKnown) return { ignored: `payment ${target.reference} is not the payment of session ${target.sessionId}` };
    } else if (target.reference) {
      const orders = await paymentOrders.byReference(tx, target.reference);
      if (orders.length > 1) return { ignored: `payment ${target.reference} belongs to more than one order` };
      order = orders[0] ?? null;
      if (!order) return { ignored: `payment ${target.reference} is no order's` };
    } else return { ignored: 'the event names no payment' };
    if ((order.stripeAccountId ?? null) !== target.account) {
      return { ignored: `the event comes from account ${target.account ?? '(the platform)'}, not merchant ${order.merchantId}'s (${order.stripeAccountId ?? 'none set'})` };
    }
    return { order };
  }

  private orderOf(tx: Tx, record: OrderRecord): Promise<Order> {
    return this.deps.toOrder ? this.deps.toOrder(tx, record) : Promise.resolve(toOrder(record));
  }
}
