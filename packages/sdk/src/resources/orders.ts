import { getOrder, listOrders } from '../generated/sdk.gen.js';
import type { Order, OrderList } from '../generated/types.gen.js';
import { zGetOrderResponse, zListOrdersResponse } from '../generated/zod.gen.js';
import type { GeneratedOperation, RequestOptions, Transport } from '../http/transport.js';
import { iterateOrders } from './iterate-orders.js';
import type { IterateOptions } from './iterate-products.js';
import type { OrderListParams } from './order-list-params.js';
import { requireId } from './require-id.js';

/**
 * The orders completed checkouts created (`/orders`), newest first. Needs a key with `orders:read`.
 *
 *   const order = await gw.orders.retrieve(session.order!.id);
 *   const page = await gw.orders.list({ status: 'created', limit: 20 }); // page.next_cursor → { cursor }
 *   for await (const order of gw.orders.iterate({ email: 'ada@example.com' })) …
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
}
