/**
 * UCP's cart operations by the official operationId (`ucp.` prefixed): thin — the merchant, the
 * cart id, the body, the service (ucp-cart.ts), the answer with its status (201 for a created cart,
 * 200 otherwise, error envelopes included). A created or changed cart's answer is stored under the
 * Idempotency-Key in the change's own transaction. 2026-04-08 only (catalog-handlers.ts).
 */
import type { Request } from 'express';
import { merchantOf } from '../../http/context.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import { requireRelease } from '../catalog/catalog-handlers.js';
import type { CartAnswer, UcpCart } from './ucp-cart.js';

const cartId = (req: Request): string => req.ctx.pathParams!.id!;
const storeAnswer = (req: Request, status: number) => req.ctx.idempotency?.storeWith<CartAnswer>(status, (answer) => answer);

export function ucpCartOperations(deps: { cart: UcpCart }): OperationHandlers {
  const { cart } = deps;
  return {
    'ucp.create_cart': async (req, res) => {
      requireRelease(req, 'create_cart');
      const { status, body } = await cart.create(merchantOf(req.ctx), req.body, storeAnswer(req, 201));
      res.status(status).json(body);
    },
    'ucp.get_cart': async (req, res) => {
      requireRelease(req, 'get_cart');
      const { status, body } = await cart.get(merchantOf(req.ctx), cartId(req));
      res.status(status).json(body);
    },
    'ucp.update_cart': async (req, res) => {
      requireRelease(req, 'update_cart');
      const { status, body } = await cart.update(merchantOf(req.ctx), cartId(req), req.body, storeAnswer(req, 200));
      res.status(status).json(body);
    },
    'ucp.cancel_cart': async (req, res) => {
      requireRelease(req, 'cancel_cart');
      const { status, body } = await cart.cancel(merchantOf(req.ctx), cartId(req), storeAnswer(req, 200));
      res.status(status).json(body);
    },
  };
}
