/**
 * Orders after checkout. Reads: one order, and the merchant's orders newest first, filtered and
 * paged by cursor (`GET /orders/{order_id}`, `GET /orders`). Changes: fulfillments (with
 * tracking), their delivery, cancellation of what is not fulfilled, and refunds through the
 * payment provider (`POST /orders/{order_id}/…`, and `gateway orders update`). Each change is one
 * transaction on the locked order: the change, the order's derived status (order-progress.ts) and
 * its event carrying the whole order (`Order`), queued in the outbox so that every endpoint hears
 * of it — ACP endpoints as `order_update`.
 *
 * A cancel before anything was fulfilled pays back everything not yet refunded (a refund with
 * reason `canceled`); after a partial fulfilment no money moves on its own. The provider is called
 * inside the transaction (as at completion): a refusal rolls everything back. Stock is not given
 * back on a cancel or refund (`catalog import` sets quantities).
 */
import type { PaymentProvider } from '../payments/payment-provider.js';
import type { CreateFulfillmentRequest, CreateRefundRequest, Order, OrderList, WebhookEventType } from '../contract-types.js';
import type { BeforeCommit, Tx, UnitOfWork } from '../db/transaction.js';
import { InvalidStateError, NotFoundError, UpstreamError } from '../errors.js';
import { newId } from '../ids.js';
import type { OutboxStore } from '../webhooks/outbox-store.js';
import { fulfillmentLines, refundOf } from './order-changes.js';
import { encodeCursor } from './order-cursor.js';
import { orderQuery, type OrderListParams } from './order-list-params.js';
import { toOrder } from './order-mapper.js';
import { deriveStatus, lineProgress, refundable } from './order-progress.js';
import type { LineUnits, OrderRecord, RefundRecord } from './order-record.js';
import type { OrderStore } from './order-store.js';

export type { OrderListParams };

/** What `gateway orders update --status` asks for: fulfil everything left, cancel, or refund the rest. */
export type OrderChange = 'fulfilled' | 'canceled' | 'refunded';

export class OrderService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly store: OrderStore,
    private readonly outbox: OutboxStore,
    private readonly payments: PaymentProvider,
  ) {}

  /** The merchant's order; NotFoundError for an unknown order and for another merchant's alike. */
  async get(merchantId: string, orderId: string): Promise<Order> {
    const record = await this.store.find(merchantId, orderId);
    if (!record) throw new NotFoundError(`No such order: ${orderId}`, 'order_id');
    return toOrder(record);
  }

  /** One page of the merchant's orders, newest first; `next_cursor` continues after its last. */
  async list(merchantId: string, params: OrderListParams): Promise<OrderList> {
    const query = orderQuery(params);
    const records = await this.store.list(merchantId, { ...query, limit: query.limit + 1 });
    const page = records.slice(0, query.limit);
    const last = page.at(-1);
    const hasMore = records.length > query.limit && last !== undefined;
    return {
      items: page.map(toOrder),
      has_more: hasMore,
      next_cursor: hasMore ? encodeCursor({ createdAt: last.session.order.createdAt, id: last.session.order.id }) : null,
    };
  }

  /** Records a fulfillment (every unit left without `lines`); `order.fulfilled` once all is fulfilled, else `order.updated`. */
  fulfil(merchantId: string, orderId: string, request: CreateFulfillmentRequest, beforeCommit?: BeforeCommit<Order>): Promise<Order> {
    return this.change(merchantId, orderId, beforeCommit, async (tx, record) => {
      const lines = fulfillmentLines(record, request);
      await this.store.addFulfillment(tx, orderId, {
        id: newId('ful'),
        carrier: request.carrier ?? null,
        trackingNumber: request.tracking_number ?? null,
        trackingUrl: request.tracking_url ?? null,
        lines,
      });
      return (status) => (status === 'fulfilled' ? 'order.fulfilled' : 'order.updated');
    });
  }

  /** Marks a fulfillment delivered; `order.updated`. */
  deliver(merchantId: string, orderId: string, fulfillmentId: string, beforeCommit?: BeforeCommit<Order>): Promise<Order> {
    return this.change(merchantId, orderId, beforeCommit, async (tx, record) => {
      const fulfillment = record.fulfillments.find((f) => f.id === fulfillmentId);
      if (!fulfillment) throw new NotFoundError(`Order ${orderId} has no fulfillment ${JSON.stringify(fulfillmentId)}`, 'fulfillment_id');
      if (!(await this.store.markDelivered(tx, orderId, fulfillmentId))) throw new InvalidStateError(`Fulfillment ${fulfillmentId} is already delivered`);
      return () => 'order.updated';
    });
  }

  /** Cancels what is not fulfilled (paying everything back when nothing was); `order.canceled`. */
  cancel(merchantId: string, orderId: string, beforeCommit?: BeforeCommit<Order>): Promise<Order> {
    return this.change(merchantId, orderId, beforeCommit, async (tx, record) => {
      if (record.canceledAt) throw new InvalidStateError(`Order ${orderId} is already canceled`);
      const progress = lineProgress(record);
      if (progress.every((line) => line.remaining === 0)) throw new InvalidStateError(`Order ${orderId} has nothing left to cancel (it is ${record.session.order.status})`);
      await this.store.markCanceled(tx, orderId);
      const nothingFulfilled = progress.every((line) => line.fulfilled === 0);
      const amount = nothingFulfilled ? refundable(record) : 0n;
      if (amount > 0n) await this.payBack(tx, record, { amount, lines: [], reason: 'canceled', note: null });
      return () => 'order.canceled';
    });
  }

  /** Pays back `amount` (default: everything not yet refunded) through the payment provider; `order.refunded`. */
  refund(merchantId: string, orderId: string, request: CreateRefundRequest, beforeCommit?: BeforeCommit<Order>): Promise<Order> {
    return this.change(merchantId, orderId, beforeCommit, async (tx, record) => {
      const { amount, lines } = refundOf(record, request);
      await this.payBack(tx, record, { amount, lines, reason: request.reason, note: request.note ?? null });
      return () => 'order.refunded';
    });
  }

  /** `gateway orders update --status`: fulfilled = fulfil every unit left, canceled = cancel, refunded = refund the rest. */
  changeStatus(merchantId: string, orderId: string, to: OrderChange): Promise<Order> {
    switch (to) {
      case 'fulfilled':
        return this.fulfil(merchantId, orderId, {});
      case 'canceled':
        return this.cancel(merchantId, orderId);
      case 'refunded':
        return this.refund(merchantId, orderId, { reason: 'other' });
    }
  }

  /** Locks the order, applies `work`, writes the derived status and the event `work` names, all in one transaction. */
  private change(
    merchantId: string,
    orderId: string,
    beforeCommit: BeforeCommit<Order> | undefined,
    work: (tx: Tx, record: OrderRecord) => Promise<(status: Order['status']) => WebhookEventType>,
  ): Promise<Order> {
    return this.db.transaction(async (tx) => {
      const before = await this.store.lock(tx, merchantId, orderId);
      if (!before) throw new NotFoundError(`No order ${JSON.stringify(orderId)}`, 'order_id');
      const eventOf = await work(tx, before);
      const changed = await this.store.lock(tx, merchantId, orderId);
      const status = deriveStatus(changed!);
      await this.store.touch(tx, orderId, status);
      const order = toOrder((await this.store.lock(tx, merchantId, orderId))!);
      await this.outbox.enqueue(tx, { merchantId, type: eventOf(status), object: order as unknown as Record<string, unknown> });
      await beforeCommit?.(tx, order);
      return order;
    });
  }

  private async payBack(tx: Tx, record: OrderRecord, refund: Pick<RefundRecord, 'amount' | 'reason' | 'note'> & { lines: LineUnits[] }): Promise<void> {
    const id = newId('re');
    const { order } = record.session;
    const outcome = await this.payments.refund({
      merchantId: record.session.merchantId,
      reference: record.session.id, // the payment operation (issue 36) names the PSP payment
      amount: refund.amount,
      currency: order.currency,
      reason: refund.reason,
      idempotencyKey: `${order.id}:${id}`,
    });
    if (outcome.kind === 'failed') throw new UpstreamError(`The payment provider ${this.payments.name} refused the refund: ${outcome.reason}`);
    await this.store.addRefund(tx, order.id, { id, ...refund, reference: outcome.reference });
  }
}

