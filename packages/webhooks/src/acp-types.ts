/**
 * ACP 2026-04-17 order webhooks (`openapi.agentic_checkout_webhook.yaml`): the body is
 * `{ type, data }` with the full order in `data`, signed in the `Merchant-Signature` header.
 */

/** `order_create` for a new order, `order_update` for a change; receivers accept unknown values. */
export type AcpWebhookEventType = 'order_create' | 'order_update' | (string & {});

/** ACP's `EventDataOrder`: the checkout spec's `Order`, with `type`, `status` and `permalink_url` always present. */
export interface AcpOrder {
  type: 'order';
  id: string;
  checkout_session_id: string;
  permalink_url: string;
  /** `created`, `confirmed`, `manual_review`, `processing`, `shipped`, `completed`, `canceled`, or a future value. */
  status: string;
  [field: string]: unknown;
}

/** The body of an ACP order webhook. It carries no event id: the order's `id` and `status` say what changed. */
export interface AcpWebhookEvent<T = AcpOrder> {
  type: AcpWebhookEventType;
  data: T;
}
