import { hasScopes } from '../auth/scopes.js';
import { AuthorizationError } from '../kernel/errors.js';
import { merchantOf } from '../http/context.js';
import type { EmitWebhookData } from '../contract/types.js';
import { inputOf, type OperationHandlers } from '../http/operation-handlers.js';
import type { EmitService } from '../webhooks/emit-service.js';

/**
 * emitWebhook (POST /webhooks/emit). With a checkout_session_id the event carries the whole
 * session (customer, address), so the key needs `checkout:read` as well as `webhooks:write`:
 * emitting is not a way to read sessions.
 */
export function webhookOperations(webhooks: EmitService): OperationHandlers {
  return {
    emitWebhook: async (req, res) => {
      const { body } = inputOf<EmitWebhookData>(req);
      if (body.checkout_session_id !== undefined && !hasScopes(req.ctx.principal!.scopes, ['checkout:read'])) {
        throw new AuthorizationError('An event with checkout_session_id carries the session: this key needs the checkout:read scope too');
      }
      res.json(await webhooks.emit(merchantOf(req.ctx), body));
    },
  };
}
