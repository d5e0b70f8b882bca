/**
 * `POST /testing/simulate-shipping/{order_id}` — what UCP's reference samples expose so that a
 * platform can see an order ship in a sandbox: every unit left of a UCP order is fulfilled
 * through OrderService with a (simulated) tracking number, and the platform receives the
 * shipped-order webhook like any other. Development and sandbox only: in production the path does
 * not exist (404). Every call needs `Simulation-Secret` equal to UCP_SIMULATION_SECRET (compared in
 * constant time; unset: every call is 403). Answers 200 with the UCP order as its checkout's
 * release shows it; 404 `not_found` for an order unknown or not placed through UCP; 409
 * `nothing_to_ship` when everything is shipped, canceled or refunded.
 *
 *   compose([…, ucpSimulation({ env, secret: config.ucpSimulationSecret, orders: ucpOrders }), …])
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { GatewayEnv } from '../../config/config.js';
import { InvalidStateError, NotFoundError } from '../../kernel/errors.js';
import { ORDER_REFUSALS } from '../order/ucp-order-operations.js';
import type { UcpOrderService } from '../order/ucp-order-service.js';
import { ucpRefusal } from '../refusals.js';

export const SIMULATION_SECRET_HEADER = 'Simulation-Secret';

export interface UcpSimulationOptions {
  env: GatewayEnv;
  /** UCP_SIMULATION_SECRET. */
  secret: string | undefined;
  orders: UcpOrderService | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The secret matches (constant time over digests, whatever the lengths). */
export function simulationAllowed(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || given === undefined) return false;
  return timingSafeEqual(digest(expected), digest(given));
}

export function ucpSimulation(options: UcpSimulationOptions): RequestHandler {
  const { orders } = options;
  if (options.env === 'production' || !orders) return (_req, _res, next) => next();
  const router = Router();
  router.post('/testing/simulate-shipping/:order_id', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!simulationAllowed(options.secret, req.get(SIMULATION_SECRET_HEADER))) {
      res.status(403).json({ code: 'forbidden', content: options.secret ? `${SIMULATION_SECRET_HEADER} is missing or wrong` : 'Shipping simulation is off: set UCP_SIMULATION_SECRET' });
      return;
    }
    try {
      res.status(200).json(await orders.simulateShipping(String(req.params.order_id)));
    } catch (error) {
      if (!(error instanceof NotFoundError || error instanceof InvalidStateError)) throw error;
      // A testing route, answered `{code, content}` whatever the release: an order's refusal with its own status.
      const refusal = ucpRefusal(error, ORDER_REFUSALS);
      res.status(refusal.status).json({ code: refusal.code, content: refusal.content });
    }
  });
  return router;
}
