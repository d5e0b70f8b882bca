import { Router, type Request } from 'express';
import type { BeforeCommit } from '../db/transaction.js';
import { merchantOf } from '../http/context.js';
import type { AcpCheckout, AcpScope, AcpSession } from './acp-checkout.js';
import type { AcpCompleteRequest, AcpCreateRequest, AcpUpdateRequest } from './wire/acp-types.js';

/** Stores the operation's answer under the request's Idempotency-Key, in the operation's transaction. */
function storeAnswer(req: Request, status: number): BeforeCommit<AcpSession> | undefined {
  return req.ctx.idempotency?.storeWith<AcpSession>(status, (session) => session);
}

/** The five ACP checkout operations; bodies are already validated against the official schema. */
export function acpRoutes(acp: AcpCheckout): Router {
  const router = Router();
  const scope = (req: Request): AcpScope => ({ merchantId: merchantOf(req.ctx) });
  router.post('/acp/checkout_sessions', async (req, res) => {
    res.status(201).json(await acp.create(scope(req), req.body as AcpCreateRequest, storeAnswer(req, 201)));
  });
  router.get('/acp/checkout_sessions/:id', async (req, res) => {
    res.json(await acp.get(scope(req), req.params.id));
  });
  router.post('/acp/checkout_sessions/:id', async (req, res) => {
    res.json(await acp.update(scope(req), req.params.id, req.body as AcpUpdateRequest, storeAnswer(req, 200)));
  });
  router.post('/acp/checkout_sessions/:id/complete', async (req, res) => {
    res.json(await acp.complete(scope(req), req.params.id, req.body as AcpCompleteRequest, storeAnswer(req, 200)));
  });
  router.post('/acp/checkout_sessions/:id/cancel', async (req, res) => {
    res.json(await acp.cancel(scope(req), req.params.id, storeAnswer(req, 200)));
  });
  return router;
}
