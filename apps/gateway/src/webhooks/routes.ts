import { Router } from 'express';
import { merchantOf } from '../http/context.js';
import type { EmitRequest, EmitService } from './emit-service.js';

/** POST /webhooks/emit. The body is already validated against the contract. */
export function webhookRoutes(webhooks: EmitService): Router {
  const router = Router();
  router.post('/webhooks/emit', async (req, res) => {
    res.json(await webhooks.emit(merchantOf(req.ctx), req.body as EmitRequest));
  });
  return router;
}
