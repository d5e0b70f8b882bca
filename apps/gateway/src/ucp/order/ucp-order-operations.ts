/**
 * The UCP order operation (order-rest.md): `GET /ucp/orders/{id}` → `ucp.get_order`, the order's
 * current-state snapshot at the request's negotiated release. Platform credentials see the orders
 * the platform originated (order.md "Authorization"): an order of another merchant, one not placed
 * through UCP, or one placed by another platform (its checkout's UCP-Agent profile) is 404
 * `not_found`, never revealing that it exists.
 */
import { merchantOf } from '../../http/context.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import { NotFoundError } from '../../errors.js';
import { negotiationOf } from '../negotiation.js';
import { UcpError } from '../ucp-error.js';
import type { UcpOrderService } from './ucp-order-service.js';

export function ucpOrderOperations(deps: { ucpOrders?: UcpOrderService | undefined }): OperationHandlers {
  const orders = deps.ucpOrders;
  return {
    'ucp.get_order': async (req, res) => {
      const { version, agent } = negotiationOf(req);
      try {
        if (!orders) throw new NotFoundError('No UCP orders in this app');
        res.status(200).json(await orders.get(merchantOf(req.ctx), req.ctx.pathParams!.id!, version, agent.profile));
      } catch (error) {
        if (error instanceof NotFoundError) throw new UcpError('not_found', 'Order not found.', 404, {}, { resource: true }); // 2026-04-08: 200 with the error envelope (order-rest.md)
        throw error;
      }
    },
  };
}
