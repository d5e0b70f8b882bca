import type { GetOrderData, ListOrdersData } from '../contract-types.js';
import { merchantOf } from '../http/context.js';
import { inputOf, type OperationHandlers } from '../http/operation-handlers.js';
import type { OrderService } from './order-service.js';

/** getOrder (GET /orders/{order_id}) and listOrders (GET /orders). */
export function orderOperations(orders: OrderService): OperationHandlers {
  return {
    getOrder: async (req, res) => {
      res.json(await orders.get(merchantOf(req.ctx), inputOf<GetOrderData>(req).path.order_id));
    },
    listOrders: async (req, res) => {
      const { query } = inputOf<ListOrdersData>(req);
      res.json(await orders.list(merchantOf(req.ctx), { ...query, limit: query.limit! })); // the contract's default is filled in at the edge
    },
  };
}
