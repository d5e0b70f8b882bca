/**
 * What an ACP endpoint receives for one of our outbox events: `order_create` for
 * `order.created`, `order_update` for every later `order.*` change, the full order in
 * `data` (never a delta), signed with `Merchant-Signature` (HMAC-SHA256 of `<t>.<body>`).
 * Every attempt rebuilds the same bytes from the stored event.
 */
import { signAcp } from '@commerce-gateway/webhooks';
import type { WebhookEvent } from '../../contract/types.js';
import { orderPermalink, type PermalinkSettings } from '../../storefront/order-permalink.js';
import { isSessionWithOrder, toAcpOrder } from './acp-order.js';
import { isOrder, toAcpOrderOf } from './acp-order-of.js';

export type AcpEventType = 'order_create' | 'order_update';

/** The ACP event type of one of ours, or null when ACP endpoints do not get it. */
export function acpEventType(type: string): AcpEventType | null {
  if (type === 'order.created') return 'order_create';
  if (type.startsWith('order.')) return 'order_update';
  return null;
}

export class AcpEventError extends Error {
  override name = 'AcpEventError';
}

/** The body sent to an ACP endpoint; throws AcpEventError when the event has no order to send. */
export function serializeAcpEvent(event: WebhookEvent, merchantId: string, permalinks: PermalinkSettings): string {
  const type = acpEventType(event.type);
  const object = event.data.object;
  if (type && isOrder(object)) return JSON.stringify({ type, data: toAcpOrderOf(object, orderPermalink(permalinks, merchantId, object.id)) });
  if (!type || !isSessionWithOrder(object)) throw new AcpEventError(`event ${event.id} (${event.type}) carries no order for an ACP endpoint`);
  const permalink = orderPermalink(permalinks, merchantId, object.order.id);
  return JSON.stringify({ type, data: toAcpOrder(object, permalink, event.created) });
}

/** Headers of an ACP delivery: the signature (one v1, as the spec's header pattern has it), Request-Id and Timestamp. */
export function acpHeaders(body: string, secret: string, event: WebhookEvent, now: Date): Record<string, string> {
  return {
    'Merchant-Signature': signAcp(body, secret, { timestamp: Math.floor(now.getTime() / 1000) }),
    'Request-Id': event.id,
    Timestamp: now.toISOString(),
  };
}
