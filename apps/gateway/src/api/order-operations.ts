import type { Request } from 'express';
import type { CreateOrderFulfillmentData, DeliverOrderFulfillmentData, GetOrderData, ListOrdersData, Order, RefundOrderData } from '../contract/types.js';
import type { BeforeCommit } from '../db/transaction.js';
import { merchantOf } from '../http/context.js';
import { inputOf, type OperationHandlers } from '../http/operation-handlers.js';
import type { OrderService } from '../orders/order-service.js';

/** Stores the change's answer under the request's Idempotency-Key, in the change's transaction. */
const storeAnswer = (req: Request): BeforeCommit<Order> | undefined => req.ctx.idempotency?.storeWith<Order>(200, (order) => order);

/** Every operation on one order names it alike: `/orders/{order_id}…`. */
const orderId = (req: Request): string => inputOf<GetOrderData>(req).path.order_id;

/** The order reads (getOrder, listOrders) and changes (fulfillments, delivery, cancel, refunds). */
export function orderOperations(orders: OrderService): OperationHandlers {
  return {
    getOrder: async (req, res) => {
      res.json(await orders.get(merchantOf(req.ctx), orderId(req)));
    },
    listOrders: async (req, res) => {
      const { query } = inputOf<ListOrdersData>(req);
      res.json(await orders.list(merchantOf(req.ctx), { ...query, limit: query.limit! })); // the contract's default is filled in at the edge
    },
    createOrderFulfillment: async (req, res) => {
      const { body } = inputOf<CreateOrderFulfillmentData>(req);
      res.json(await orders.fulfil(merchantOf(req.ctx), orderId(req), body, storeAnswer(req)));
    },
    deliverOrderFulfillment: async (req, res) => {
      const { path } = inputOf<DeliverOrderFulfillmentData>(req);
      res.json(await orders.deliver(merchantOf(req.ctx), path.order_id, path.fulfillment_id, storeAnswer(req)));
    },
    cancelOrder: async (req, res) => {
      res.json(await orders.cancel(merchantOf(req.ctx), orderId(req), storeAnswer(req)));
    },
    refundOrder: async (req, res) => {
      const { body } = inputOf<RefundOrderData>(req);
      res.json(await orders.refund(merchantOf(req.ctx), orderId(req), body, storeAnswer(req)));
    },
  };
}
