import type { Request } from 'express';
import type { CheckoutSession, CreateCheckoutSessionData, GetCheckoutSessionData, UpdateCheckoutSessionData } from '../contract/types.js';
import type { BeforeCommit } from '../db/transaction.js';
import { merchantOf } from '../http/context.js';
import { inputOf, type OperationHandlers } from '../http/operation-handlers.js';
import type { CheckoutService } from '../checkout/checkout-service.js';

/** Stores the operation's answer under the request's Idempotency-Key, in the operation's transaction. */
function storeAnswer(req: Request, status: number): BeforeCommit<CheckoutSession> | undefined {
  return req.ctx.idempotency?.storeWith<CheckoutSession>(status, (session) => ({ checkout_session: session }));
}

/** Every operation on one session names it alike: `/checkout_sessions/{session_id}…`. */
const sessionId = (req: Request): string => inputOf<GetCheckoutSessionData>(req).path.session_id;

/** The five checkout-session operations. */
export function checkoutOperations(checkout: CheckoutService): OperationHandlers {
  return {
    createCheckoutSession: async (req, res) => {
      const { body } = inputOf<CreateCheckoutSessionData>(req);
      const session = await checkout.create(merchantOf(req.ctx), body, storeAnswer(req, 201));
      res.status(201).json({ checkout_session: session });
    },
    getCheckoutSession: async (req, res) => {
      res.json({ checkout_session: await checkout.get(merchantOf(req.ctx), sessionId(req)) });
    },
    updateCheckoutSession: async (req, res) => {
      const { body } = inputOf<UpdateCheckoutSessionData>(req);
      const session = await checkout.update(merchantOf(req.ctx), sessionId(req), body, storeAnswer(req, 200));
      res.json({ checkout_session: session });
    },
    completeCheckoutSession: async (req, res) => {
      res.json({ checkout_session: await checkout.complete(merchantOf(req.ctx), sessionId(req), storeAnswer(req, 200)) });
    },
    cancelCheckoutSession: async (req, res) => {
      res.json({ checkout_session: await checkout.cancel(merchantOf(req.ctx), sessionId(req), storeAnswer(req, 200)) });
    },
  };
}
