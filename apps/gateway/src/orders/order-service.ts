/**
 * Orders after checkout. Reads: one order, and the merchant's orders newest first, filtered and
 * paged by cursor (`GET /orders/{order_id}`, `GET /orders`), each with its payment (order-payment.ts).
 * Changes: fulfillments (with tracking), their delivery, cancellation of what is not fulfilled, and
 * refunds (`POST /orders/{order_id}/…`, and `gateway orders update`). Each change is one
 * transaction on the locked order: the change, the order's derived status (order-progress.ts) and
 * its event carrying the whole order (`Order`), queued in the outbox so that every endpoint hears
 * of it — ACP endpoints as `order_update`.
 *
 * A cancel before anything was fulfilled pays back everything not yet refunded (a refund with
 * reason `canceled`); after a partial fulfilment no money moves on its own. Money moves outside the
 * transaction (issue 36): the transaction records the refund and its payment operation, pending;
 * after the commit the provider is asked (the payment worker retries it when it cannot be reached),
 * and its refund id is written back. A refund the provider finally refuses is taken back
 * (`refundRefused`): it leaves the order's refunds, the status is derived again, `order.updated`
 * tells of it, and the order's payment keeps the refused operation; the request that asked for it
 * gets 502 as before. Stock is not given back on a cancel or refund (`catalog import` sets quantities).
 */
import type { CreateFulfillmentRequest, CreateRefundRequest, Order, OrderList, WebhookEventType } from '../contract/types.js';
import type { BeforeCommit, Tx, UnitOfWork } from '../db/transaction.js';
import { InvalidStateError, NotFoundError, UpstreamError } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { DisputeStore } from '../payments/disputes/dispute-store.js';
import { refundKey, type PaymentOperation } from '../payments/operations/payment-operation.js';
import type { PaymentOperations } from '../payments/operations/payment-operations.js';
import { PaymentProviderNotConfiguredError, REFUNDS_NOT_CONFIGURED_MESSAGE } from '../payments/unconfigured-payment-provider.js';
import type { OutboxStore } from '../webhooks/outbox-store.js';
import { fulfillmentLines, refundOf } from './order-changes.js';
import { encodeCursor } from './order-cursor.js';
import { orderQuery, type OrderListParams } from './order-list-params.js';
import { toOrder } from './order-mapper.js';
import { operationView, orderPayment, type PaymentOperationView } from './order-payment.js';
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
    private readonly payments: PaymentOperations,
    private readonly disputes?: DisputeStore,
  ) {}

  /** The merchant's order; NotFoundError for an unknown order and for another merchant's alike. */
  async get(merchantId: string, orderId: string): Promise<Order> {
    const record = await this.store.find(merchantId, orderId);
    if (!record) throw new NotFoundError(`No such order: ${orderId}`, 'order_id');
    return (await this.shown([record]))[0]!;
  }

  /** Every payment operation of the order's session, oldest first (the admin API's order detail). */
  async paymentOperations(sessionId: string): Promise<PaymentOperationView[]> {
    return (await this.payments.store.ofSessions([sessionId])).map(operationView);
  }

  /** One page of the merchant's orders, newest first; `next_cursor` continues after its last. */
  async list(merchantId: string, params: OrderListParams): Promise<OrderList> {
    const query = orderQuery(params);
    const records = await this.store.list(merchantId, { ...query, limit: query.limit + 1 });
    const page = records.slice(0, query.limit);
    const last = page.at(-1);
    const hasMore = records.length > query.limit && last !== undefined;
    return {
      items: await this.shown(page),
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
    return this.changeAndPay(merchantId, orderId, beforeCommit, async (tx, record, refunds) => {
      if (record.canceledAt) throw new InvalidStateError(`Order ${orderId} is already canceled`);
      const progress = lineProgress(record);
      if (progress.every((line) => line.remaining === 0)) throw new InvalidStateError(`Order ${orderId} has nothing left to cancel (it is ${record.session.order.status})`);
      await this.store.markCanceled(tx, orderId);
      const nothingFulfilled = progress.every((line) => line.fulfilled === 0);
      const amount = nothingFulfilled ? refundable(record) : 0n;
      if (amount > 0n) refunds.push(await this.payBack(tx, record, { amount, lines: [], reason: 'canceled', note: null }));
      return () => 'order.canceled';
    });
  }

  /** Pays back `amount` (default: everything not yet refunded) through the payment provider; `order.refunded`. */
  refund(merchantId: string, orderId: string, request: CreateRefundRequest, beforeCommit?: BeforeCommit<Order>): Promise<Order> {
    return this.changeAndPay(merchantId, orderId, beforeCommit, async (tx, record, refunds) => {
      const { amount, lines } = refundOf(record, request);
      refunds.push(await this.payBack(tx, record, { amount, lines, reason: request.reason, note: request.note ?? null }));
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
      const [order] = await this.shown([(await this.store.lock(tx, merchantId, orderId))!], tx);
      if (!order) throw new NotFoundError(`No order ${JSON.stringify(orderId)}`, 'order_id');
      await this.outbox.enqueue(tx, { merchantId, type: eventOf(status), object: order as unknown as Record<string, unknown> });
      await beforeCommit?.(tx, order);
      return order;
    });
  }

  /**
   * The PSP finally refused a refund recorded with the order (inline or by the worker): the refund
   * leaves the order's refunds and the status is derived again, `order.updated` telling of it; the
   * refused operation stays in the order's payment.
   */
  async refundRefused(operation: PaymentOperation, _reason: string): Promise<void> {
    if (!operation.orderId || !operation.refundId) return;
    const refundId = operation.refundId;
    await this.change(operation.merchantId, operation.orderId, undefined, async (tx) => {
      await this.store.removeRefund(tx, refundId);
      return () => 'order.updated';
    });
  }

  /**
   * `change`, then the refunds it recorded are asked of the PSP (after the commit); a final refusal answers 502 (the refund
   * taken back by refundRefused). A retry with the same Idempotency-Key replays the answer the change stored at its commit.
   */
  private async changeAndPay(
    merchantId: string,
    orderId: string,
    beforeCommit: BeforeCommit<Order> | undefined,
    work: (tx: Tx, record: OrderRecord, refunds: PaymentOperation[]) => Promise<(status: Order['status']) => WebhookEventType>,
  ): Promise<Order> {
    const refunds: PaymentOperation[] = [];
    const order = await this.change(merchantId, orderId, beforeCommit, (tx, record) => work(tx, record, refunds));
    if (refunds.length === 0) return order;
    for (const refund of refunds) {
      const recorded = await this.payments.runQuietly(refund);
      if (recorded?.state === 'failed') throw new UpstreamError(`The payment provider ${this.payments.provider.name} refused the refund: ${recorded.error}`);
    }
    // The order as the change committed it — what a retry with the same Idempotency-Key replays: its payment counts the
    // refund once the PSP confirmed it (GET the order); a refund the PSP could not be asked yet is the worker's.
    return order;
  }

  /** Records the refund and its payment operation (pending, leased to this request) in the change's transaction. */
  private async payBack(tx: Tx, record: OrderRecord, refund: Pick<RefundRecord, 'amount' | 'reason' | 'note'> & { lines: LineUnits[] }): Promise<PaymentOperation> {
    if (this.payments.provider.name === 'none') throw new PaymentProviderNotConfiguredError(REFUNDS_NOT_CONFIGURED_MESSAGE);
    const id = newId('re');
    const { order } = record.session;
    const paid = (await this.payments.store.ofSessions([record.session.id], tx)).find((op) => op.kind === 'capture' && op.orderId === order.id);
    await this.store.addRefund(tx, order.id, { id, ...refund, reference: null });
    const now = new Date();
    const operation: PaymentOperation = {
      id: newId('pop'),
      merchantId: record.session.merchantId,
      sessionId: record.session.id,
      orderId: order.id,
      refundId: id,
      kind: 'refund',
      state: 'pending',
      provider: paid?.provider ?? this.payments.provider.name,
      amount: refund.amount,
      currency: order.currency,
      // An order placed before payments were recorded names its payment by its session (the test provider's reference).
      reference: paid?.reference ?? record.session.id,
      idempotencyKey: refundKey(id),
      request: { reason: refund.reason },
      attempts: 0,
      lastError: null,
      nextAttemptAt: this.payments.leaseEnd(),
      createdAt: now,
      updatedAt: now,
    };
    await this.payments.store.insert(tx, operation, now);
    return operation;
  }

  /** The contract's orders of `records`, each with its payment (its session's operations and its disputes). */
  private async shown(records: readonly OrderRecord[], tx?: Tx): Promise<Order[]> {
    const [operations, disputes] = await Promise.all([
      this.payments.store.ofSessions(records.map((r) => r.session.id), tx),
      this.disputes ? this.disputes.disputesOfOrders(records.map((r) => r.session.order.id), tx) : new Map(),
    ]);
    return records.map((record) => {
      const ofSession = operations.filter((op) => op.sessionId === record.session.id);
      return toOrder(record, orderPayment(record.session.order.id, ofSession, disputes.get(record.session.order.id) ?? []));
    });
  }
}
