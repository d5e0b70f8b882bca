import { emitWebhook } from '../generated/sdk.gen.js';
import type { WebhookEmitRequest, WebhookEmitResult } from '../generated/types.gen.js';
import { zEmitWebhookResponse } from '../generated/zod.gen.js';
import type { GeneratedOperation, RequestOptions, Transport } from '../http/transport.js';

/**
 * Order-lifecycle events (`/webhooks/emit`).
 *
 *   const { payload, signature } = await gw.webhooks.emit({ event_type: 'order.created', checkout_session_id: id });
 */
export class Webhooks {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Builds and signs an event and, with `target_url`, delivers it once (`delivered` = the
   * target's status). A target that gives no answer → `ServerError` (502 `bad_gateway`).
   */
  async emit(params: WebhookEmitRequest, options?: RequestOptions): Promise<WebhookEmitResult> {
    return this.#transport.call<WebhookEmitResult>({ operation: 'emitWebhook', method: 'POST', send: emitWebhook as GeneratedOperation, schema: zEmitWebhookResponse, body: params }, options);
  }
}
