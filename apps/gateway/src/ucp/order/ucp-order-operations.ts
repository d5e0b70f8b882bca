/**
 * The UCP order operations under the endpoint discovery advertises (`/ucp`):
 * - `GET /ucp/orders/{id}` → `ucp.get_order` (order-rest.md), at both releases: 2026-01-11 defines
 *   no order read of its own, but its clients read `GET /orders/{id}` relative to the UCP endpoint;
 * - `PUT /ucp/orders/{id}` → `ucp.update_order`, the fulfillment updates (order-update.ts), outside
 *   production only.
 * An order is answered at the release of the checkout that placed it (as a checkout is). Platform
 * credentials see the orders the platform originated (order.md "Authorization"): an order of another
 * merchant, one not placed through UCP, or one placed by another platform (its checkout's UCP-Agent
 * profile) is `not_found`, never revealing that it exists — answered at the platform's release,
 * which its profile says when the request did not.
 */
import type { Request } from 'express';
import type { GatewayEnv } from '../../config/config.js';
import { GatewayError, NotFoundError } from '../../kernel/errors.js';
import { merchantOf } from '../../http/context.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import { negotiationOf } from '../negotiation.js';
import { type RefusalContext, ucpRefusal } from '../refusals.js';
import { UcpError } from '../ucp-error.js';
import type { UcpOrderService } from './ucp-order-service.js';

/**
 * An order's refusals (refusals.ts): an order the platform cannot see is "Order not found." (200
 * with the error envelope under 2026-04-08, order-rest.md); one with nothing left to ship refuses a
 * shipment (409 `nothing_to_ship`); a bad update names `$.fulfillment.events`.
 */
export const ORDER_REFUSALS: RefusalContext = {
  resource: { notFound: 'Order not found.', notModifiable: 'nothing_to_ship' },
  path: '$.fulfillment.events',
};

export function ucpOrderOperations(deps: { ucpOrders?: UcpOrderService | undefined; config?: { env: GatewayEnv } }): OperationHandlers {
  const orders = deps.ucpOrders;
  const updates = deps.config?.env !== 'production';

  /** Runs an order operation at the order's release; refusals become UCP errors of that release. */
  const atOrderRelease = async <T>(req: Request, work: (merchantId: string, orderId: string) => Promise<T>): Promise<T> => {
    const negotiation = negotiationOf(req);
    const merchantId = merchantOf(req.ctx);
    const orderId = req.ctx.pathParams!.id!;
    try {
      if (!orders) throw new NotFoundError('No UCP orders in this app');
      negotiation.version = await orders.release(merchantId, orderId, negotiation.agent.profile);
      return await work(merchantId, orderId);
    } catch (error) {
      if (error instanceof NotFoundError && negotiation.agent.version === undefined) await negotiation.profile().catch(() => undefined);
      throw error instanceof GatewayError ? ucpRefusal(error, ORDER_REFUSALS) : error;
    }
  };

  return {
    'ucp.get_order': async (req, res) => {
      res.status(200).json(await atOrderRelease(req, (merchantId, orderId) => orders!.get(merchantId, orderId, negotiationOf(req).version, negotiationOf(req).agent.profile)));
    },
    'ucp.update_order': async (req, res) => {
      if (!updates) throw new UcpError('not_found', `${req.method} ${req.path} is not served in production: shipments are the business's to record`, 404);
      res.status(200).json(await atOrderRelease(req, (merchantId, orderId) => orders!.update(merchantId, orderId, negotiationOf(req).version, req.body, negotiationOf(req).agent.profile)));
    },
  };
}
