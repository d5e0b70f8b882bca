import type { CreateFulfillmentRequest, CreateRefundRequest } from '../../contract/types.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { OrderListParams, OrderService } from '../../orders/order-service.js';
import type { DeliveryLog } from '../../webhooks/delivery-log.js';
import { deliveryWire } from '../wire.js';
import { pageParams, pathParam } from './page-params.js';

/** The orders service's reads and changes, for the merchant of the path (checked by requireAccess()). */
export function orderOperations(orders: OrderService, deliveries: Pick<DeliveryLog, 'ofOrder'>): OperationHandlers {
  return {
    listOrders: async (req, res) => {
      const status = req.ctx.query?.status as OrderListParams['status'] | undefined;
      const { limit, cursor } = pageParams(req);
      res.json(await orders.list(pathParam(req, 'merchant_id'), { limit, ...(cursor ? { cursor } : {}), ...(status ? { status } : {}) }));
    },
    getOrder: async (req, res) => {
      const merchantId = pathParam(req, 'merchant_id');
      const order = await orders.get(merchantId, pathParam(req, 'order_id'));
      const events = await deliveries.ofOrder(merchantId, order.id);
      res.json({
        order,
        payment_operations: await orders.paymentOperations(order.checkout_session_id),
        events: events.map((e) => ({ id: e.id, type: e.type, created_at: new Date(e.createdAt).toISOString(), deliveries: e.deliveries.map(deliveryWire) })),
      });
    },
    fulfilOrder: async (req, res) => {
      res.json(await orders.fulfil(pathParam(req, 'merchant_id'), pathParam(req, 'order_id'), req.body as CreateFulfillmentRequest));
    },
    cancelOrder: async (req, res) => {
      res.json(await orders.cancel(pathParam(req, 'merchant_id'), pathParam(req, 'order_id')));
    },
    refundOrder: async (req, res) => {
      res.json(await orders.refund(pathParam(req, 'merchant_id'), pathParam(req, 'order_id'), req.body as CreateRefundRequest));
    },
  };
}
