/**
 * UCP's cart operations by the official operationId (`ucp.` prefixed): thin — the merchant, the
 * cart id, the body, the service (ucp-cart.ts), the answer with its status (201 for a created cart,
 * 200 otherwise, error envelopes included). A created or changed cart's answer is stored under the
 * Idempotency-Key in the change's own transaction. 2026-04-08 only (catalog-handlers.ts).
 */
import type { Request } from 'express';
import { merchantOf } from '../../http/context.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { CartSource } from '../checkout/ucp-checkout.js';
import { requireRelease } from '../catalog/catalog-handlers.js';
import { UcpError } from '../ucp-error.js';
import { UcpCart, type CartAnswer, type UcpCartDeps } from './ucp-cart.js';

const cartId = (req: Request): string => req.ctx.pathParams!.id!;
const storeAnswer = (req: Request, status: number) => req.ctx.idempotency?.storeWith<CartAnswer>(status, (answer) => answer);

export function ucpCartOperations(deps: UcpCartDeps): OperationHandlers {
  const cart = new UcpCart(deps);
  return {
    'ucp.create_cart': async (req, res) => {
      await requireRelease(req, 'create_cart');
      const { status, body } = await cart.create(merchantOf(req.ctx), req.body, storeAnswer(req, 201));
      res.status(status).json(body);
    },
    'ucp.get_cart': async (req, res) => {
      await requireRelease(req, 'get_cart');
      const { status, body } = await cart.get(merchantOf(req.ctx), cartId(req));
      res.status(status).json(body);
    },
    'ucp.update_cart': async (req, res) => {
      await requireRelease(req, 'update_cart');
      const { status, body } = await cart.update(merchantOf(req.ctx), cartId(req), req.body, storeAnswer(req, 200));
      res.status(status).json(body);
    },
    'ucp.cancel_cart': async (req, res) => {
      await requireRelease(req, 'cancel_cart');
      const { status, body } = await cart.cancel(merchantOf(req.ctx), cartId(req), storeAnswer(req, 200));
      res.status(status).json(body);
    },
  };
}

/**
 * For UCP checkout's `cart_id` (ucp-checkout.ts `CartSource`): an open cart of the merchant — its
 * lines as create_checkout's line items, its buyer, the checkout made from it — and the link from
 * the cart to that checkout; a cart that does not exist (or is another merchant's, or canceled) is
 * `not_found` naming `$.cart_id`.
 */
export function ucpCartSource(deps: UcpCartDeps): CartSource {
  const cart = new UcpCart(deps);
  return {
    async contents(merchantId, cartId) {
      const contents = await cart.cartLines(merchantId, cartId);
      if (!contents) throw new UcpError('not_found', `No cart ${JSON.stringify(cartId.slice(0, 80))}: it does not exist or is no longer open`, 404, {}, { resource: true, path: '$.cart_id' });
      return { lines: contents.lines, ...(contents.buyer ? { buyer: contents.buyer } : {}), ...(contents.checkoutId ? { checkoutId: contents.checkoutId } : {}) };
    },
    link: (merchantId, cartId, checkoutId) => cart.linkCheckout(merchantId, cartId, checkoutId),
  };
}
