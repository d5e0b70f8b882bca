import { Router, type Request } from 'express';
import type { CheckoutSession, CreateCheckoutSessionRequest, UpdateCheckoutSessionRequest } from '../contract-types.js';
import type { BeforeCommit } from '../db/transaction.js';
import { merchantOf } from '../http/context.js';
import type { CheckoutService } from './checkout-service.js';

/** Stores the operation's answer under the request's Idempotency-Key, in the operation's transaction. */
function storeAnswer(req: Request, status: number): BeforeCommit<CheckoutSession> | undefined {
  return req.ctx.idempotency?.storeWith<CheckoutSession>(status, (session) => ({ checkout_session: session }));
}

/** The five checkout-session operations. Input is already validated against the contract. */
export function checkoutRoutes(checkout: CheckoutService): Router {
  const router = Router();
  router.post('/checkout_sessions', async (req, res) => {
    const body = req.body as CreateCheckoutSessionRequest;
    const session = await checkout.create(merchantOf(req.ctx), body, storeAnswer(req, 201));
    res.status(201).json({ checkout_session: session });
  });
  router.get('/checkout_sessions/:session_id', async (req, res) => {
    res.json({ checkout_session: await checkout.get(merchantOf(req.ctx), req.params.session_id) });
  });
  router.patch('/checkout_sessions/:session_id', async (req, res) => {
    const body = req.body as UpdateCheckoutSessionRequest;
    const session = await checkout.update(merchantOf(req.ctx), req.params.session_id, body, storeAnswer(req, 200));
    res.json({ checkout_session: session });
  });
  router.post('/checkout_sessions/:session_id/complete', async (req, res) => {
    res.json({ checkout_session: await checkout.complete(merchantOf(req.ctx), req.params.session_id, storeAnswer(req, 200)) });
  });
  router.post('/checkout_sessions/:session_id/cancel', async (req, res) => {
    res.json({ checkout_session: await checkout.cancel(merchantOf(req.ctx), req.params.session_id, storeAnswer(req, 200)) });
  });
  return router;
}
