import type { AcpWebhookEvent } from './acp-types.js';
import { verifyAcp } from './acp-node.js';
import { WebhookVerificationError } from './errors.js';
import type { WebhookResponse } from './express.js';
import { fail } from './messages.js';
import { checkVerifyOptions, secretList } from './options.js';
import { kindOf } from './payload.js';
import type { VerifyOptions, WebhookSecret } from './types.js';

/** The parts of an Express (or plain node:http) request the ACP middleware uses. */
export interface AcpWebhookRequest<T = AcpWebhookEvent> {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** Set by the middleware once the delivery is verified. */
  acpEvent?: T;
}

export interface AcpWebhookMiddlewareOptions extends VerifyOptions {
  secret: WebhookSecret;
}

/**
 * Verifies each ACP order webhook (`Merchant-Signature`); needs the raw body as a Buffer in `req.body`:
 *
 *   app.post('/agentic_checkout/webhooks/order_events', express.raw({ type: 'application/json' }),
 *     acpWebhookMiddleware({ secret }), (req, res) => { handle(req.acpEvent); res.json({ received: true }); });
 *
 * A refused delivery gets what the ACP webhook spec prescribes: 401
 * `{ type: 'invalid_request', code: 'invalid_signature', message }`.
 */
export function acpWebhookMiddleware<T = AcpWebhookEvent>({ secret, ...options }: AcpWebhookMiddlewareOptions) {
  secretList(secret); // a missing secret fails at start-up, not on the first delivery
  checkVerifyOptions(options);
  return function verifyAcpWebhook(req: AcpWebhookRequest<T>, res: WebhookResponse, next: (error?: unknown) => void): void {
    try {
      const body = req.body;
      if (!ArrayBuffer.isView(body)) throw fail.notRawBody(kindOf(body));
      req.acpEvent = verifyAcp<T>(body, req.headers['merchant-signature'], secret, options);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) return next(error);
      res.statusCode = 401;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ type: 'invalid_request', code: 'invalid_signature', message: error.message }));
      return;
    }
    next();
  };
}
