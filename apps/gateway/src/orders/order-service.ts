/**
 * Orders after checkout. Reads: one order, and the merchant's orders newest first, filtered and
 * paged by cursor (`GET /orders/{order_id}`, `GET /orders`). Changes: the merchant marks
 * it fulfilled, canceled or refunded (`gateway orders update`). Each change is written with its
 * `order.fulfilled` / `order.canceled` / `order.refunded` event in one transaction, so every
 * endpoint hears of it through the outbox — ACP endpoints as `order_update` with the full order.
 *
 * Allowed: created → fulfilled | canceled | refunded; fulfilled → refunded. Stock is not
 * given back on a cancel or refund (what came back to the shelf is the merchant's call:
 * `catalog import` sets quantities).
 */
import { toCheckoutSession } from '../checkout/session-mapper.js';
import type { CheckoutSession, Order, OrderList, WebhookEventType } from '../contract-types.js';
import type { UnitOfWork } from '../db/transaction.js';
import { InvalidStateError, NotFoundError } from '../errors.js';
import type { OutboxStore } from '../webhooks/outbox-store.js';
import { encodeCursor } from './order-cursor.js';
import { orderQuery, type OrderListParams } from './order-list-params.js';
import { toOrder } from './order-mapper.js';
import type { OrderStatus, OrderStore } from './order-store.js';

export type { OrderListParams };

export type OrderChange = Exclude<OrderStatus, 'created'>;

const FROM: Record<OrderChange, readonly OrderStatus[]> = {
  fulfilled: ['created'],
  canceled: ['created'],
  refunded: ['created', 'fulfilled'],
};
const EVENT: Record<OrderChange, WebhookEventType> = { fulfilled: 'order.fulfilled', canceled: 'order.canceled', refunded: 'order.refunded' };

export class OrderService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly store: OrderStore,
    private readonly outbox: OutboxStore,
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

  /** Changes the order's status and queues its event; returns the session as the event carries it. */
  changeStatus(merchantId: string, orderId: string, to: OrderChange): Promise<CheckoutSession> {
    return this.db.transaction(async (tx) => {
      if (!(await this.store.changeStatus(tx, merchantId, orderId, FROM[to], to))) {
        const current = await this.store.currentStatus(tx, merchantId, orderId);
        if (current === null) throw new NotFoundError(`No order ${JSON.stringify(orderId)}`, 'order_id');
        throw new InvalidStateError(`Order ${orderId} is ${current}; only a ${FROM[to].join(' or ')} order can become ${to}`);
      }
      const session = toCheckoutSession(await this.store.sessionOf(tx, merchantId, orderId));
      await this.outbox.enqueue(tx, { merchantId, type: EVENT[to], object: session as unknown as Record<string, unknown> });
      return session;
    });
  }
}
