import type { Request } from 'express';
import type { BeforeCommit } from '../db/transaction.js';
import { merchantOf } from '../http/context.js';
import type { OperationHandlers } from '../http/operation-handlers.js';
import type { AcpCheckout, AcpScope, AcpSession } from './acp-checkout.js';
import type { AcpCompleteRequest, AcpCreateRequest, AcpUpdateRequest } from './wire/acp-types.js';

/** Stores the operation's answer under the request's Idempotency-Key, in the operation's transaction. */
function storeAnswer(req: Request, status: number): BeforeCommit<AcpSession> | undefined {
  return req.ctx.idempotency?.storeWith<AcpSession>(status, (session) => session);
}

const scope = (req: Request): AcpScope => ({ merchantId: merchantOf(req.ctx) });
const sessionId = (req: Request): string => req.ctx.pathParams!.checkout_session_id!;

/** The five ACP checkout operations by the official operationId (`acp.` prefixed); bodies are already validated against the official schema. */
export function acpOperations(acp: AcpCheckout): OperationHandlers {
  return {
    'acp.createCheckoutSession': async (req, res) => {
      res.status(201).json(await acp.create(scope(req), req.body as AcpCreateRequest, storeAnswer(req, 201)));
    },
    'acp.getCheckoutSession': async (req, res) => {
      res.json(await acp.get(scope(req), sessionId(req)));
    },
    'acp.updateCheckoutSession': async (req, res) => {
      res.json(await acp.update(scope(req), sessionId(req), req.body as AcpUpdateRequest, storeAnswer(req, 200)));
    },
    'acp.completeCheckoutSession': async (req, res) => {
      res.json(await acp.complete(scope(req), sessionId(req), req.body as AcpCompleteRequest, storeAnswer(req, 200)));
    },
    'acp.cancelCheckoutSession': async (req, res) => {
      res.json(await acp.cancel(scope(req), sessionId(req), storeAnswer(req, 200)));
    },
  };
}
