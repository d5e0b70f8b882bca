import { cancelOrder, createOrderFulfillment, deliverOrderFulfillment, getOrder, listOrders, refundOrder } from '../generated/sdk.gen.js';
import type { CreateFulfillmentRequest, CreateRefundRequest, Order, OrderList } from '../generated/types.gen.js';
import {
  zCancelOrderResponse,
  zCreateOrderFulfillmentResponse,
  zDeliverOrderFulfillmentResponse,
  zGetOrderResponse,
  zListOrdersResponse,
  zRefundOrderResponse,
} from '../generated/zod.gen.js';
import type { GeneratedOperation, RequestOptions, Transport } from '../http/transport.js';
import { iterateOrders } from './iterate-orders.js';
import type { IterateOptions } from './iterate-products.js';
import type { OrderListParams } from './order-list-params.js';
import { requireId } from './require-id.js';

/**
 * The orders completed checkouts created (`/orders`), newest first. Reads need a key with
 * `orders:read`; changes (fulfil, deliver, cancel, refund) `orders:write`, and carry an
 * Idempotency-Key (a fresh one per call unless `options.idempotencyKey` is given; the same on every retry).
 * Every change resolves to the whole order after it.
 *
 *   const order = await gw.orders.retrieve(session.order!.id);
 *   const page = await gw.orders.list({ status: 'created', limit: 20 }); // page.next_cursor → { cursor }
 *   for await (const order of gw.orders.iterate({ email: 'ada@example.com' })) …
 *   const shipped = await gw.orders.fulfil(order.id, { carrier: 'UPS', tracking_number: '1Z…', lines: [{ line: 1, quantity: 1 }] });
 *   await gw.orders.deliver(order.id, shipped.fulfillments[0]!.id);
 *   await gw.orders.refund(order.id, { amount: 5, reason: 'damaged' });
 *   await gw.orders.cancel(order.id);
 */
export class Orders {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** One order with its lines, amounts, customer and address (GET /orders/{id}). */
  async retrieve(orderId: string, options?: RequestOptions): Promise<Order> {
    const path = { order_id: requireId(orderId, 'orderId') };
    return this.#transport.call<Order>({ operation: 'getOrder', method: 'GET', send: getOrder as GeneratedOperation, schema: zGetOrderResponse, path }, options);
  }

  /** One page (GET /orders): `items`, `has_more`, `next_cursor` (pass it as `cursor` for the next page). */
  async list(params: OrderListParams = {}, options?: RequestOptions): Promise<OrderList> {
    return this.#transport.call<OrderList>({ operation: 'listOrders', method: 'GET', send: listOrders as GeneratedOperation, schema: zListOrdersResponse, query: params }, options);
  }

  /**
   * Every order matching the filters, newest first, page after page (100 a page unless `limit`
   * in the params says otherwise), stopping after `limit` orders of the options (default 1000;
   * `Infinity` for no cap).
   */
  iterate(params: OrderListParams = {}, options?: IterateOptions): AsyncGenerator<Order, void, undefined> {
    return iterateOrders((query, requestOptions) => this.list(query, requestOptions), params, options);
  }

  /** Records a fulfillment: `lines` shipped (default: every unit left), carrier and tracking (POST /orders/{id}/fulfillments). */
  async fulfil(orderId: string, params: CreateFulfillmentRequest = {}, options?: RequestOptions): Promise<Order> {
    const path = { order_id: requireId(orderId, 'orderId') };
    return this.#transport.call<Order>({ operation: 'createOrderFulfillment', method: 'POST', send: createOrderFulfillment as GeneratedOperation, schema: zCreateOrderFulfillmentResponse, path, body: params }, options);
  }

  /** Marks a fulfillment delivered (POST /orders/{id}/fulfillments/{fulfillment_id}/deliver). */
  async deliver(orderId: string, fulfillmentId: string, options?: RequestOptions): Promise<Order> {
    const path = { order_id: requireId(orderId, 'orderId'), fulfillment_id: requireId(fulfillmentId, 'fulfillmentId') };
    return this.#transport.call<Order>({ operation: 'deliverOrderFulfillment', method: 'POST', send: deliverOrderFulfillment as GeneratedOperation, schema: zDeliverOrderFulfillmentResponse, path }, options);
  }

  /** Cancels what is not fulfilled; with nothing fulfilled, pays everything back (POST /orders/{id}/cancel). */
  async cancel(orderId: string, options?: RequestOptions): Promise<Order> {
    const path = { order_id: requireId(orderId, 'orderId') };
    return this.#transport.call<Order>({ operation: 'cancelOrder', method: 'POST', send: cancelOrder as GeneratedOperation, schema: zCancelOrderResponse, path }, options);
  }

  /** Pays back `amount` (major units; default: the rest) through the payment provider (POST /orders/{id}/refunds). */
  async refund(orderId: string, params: CreateRefundRequest, options?: RequestOptions): Promise<Order> {
    const path = { order_id: requireId(orderId, 'orderId') };
    return this.#transport.call<Order>({ operation: 'refundOrder', method: 'POST', send: refundOrder as GeneratedOperation, schema: zRefundOrderResponse, path, body: params }, options);
  }
}
