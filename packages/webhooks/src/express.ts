import { WebhookVerificationError } from './errors.js';
import { fail } from './messages.js';
import { verify } from './node.js';
import { checkVerifyOptions, secretList } from './options.js';
import { kindOf } from './payload.js';
import type { VerifyOptions, WebhookEvent, WebhookSecret } from './types.js';

/** The parts of an Express (or plain node:http) request the middleware uses. */
export interface WebhookRequest<T = unknown> {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** Set by the middleware once the delivery is verified. */
  webhookEvent?: WebhookEvent<T>;
}

/** The parts of an Express (or plain node:http) response the middleware uses. */
export interface WebhookResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
}

export interface WebhookMiddlewareOptions extends VerifyOptions {
  secret: WebhookSecret;
}

/**
 * Verifies each delivery; needs the raw body as a Buffer in `req.body`:
 *
 *   app.post('/webhooks', express.raw({ type: 'application/json' }), webhookMiddleware({ secret }),
 *     (req, res) => { handle(req.webhookEvent); res.sendStatus(200); });
 *
 * A refused delivery gets 400 `{ error: { type: 'webhook_verification_error', reason, message } }`.
 */
export function webhookMiddleware<T = unknown>({ secret, ...options }: WebhookMiddlewareOptions) {
  secretList(secret); // a missing secret fails at start-up, not on the first delivery
  checkVerifyOptions(options);
  return function verifyWebhook(req: WebhookRequest<T>, res: WebhookResponse, next: (error?: unknown) => void): void {
    try {
      const body = req.body;
      if (!ArrayBuffer.isView(body)) throw fail.notRawBody(kindOf(body));
      req.webhookEvent = verify<T>(body, req.headers['x-webhook-signature'], secret, options);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) return next(error);
      const { reason, message } = error;
      res.statusCode = 400;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ error: { type: 'webhook_verification_error', reason, message } }));
      return;
    }
    next();
  };
}
