/**
 * What a platform's order webhook URL receives for one of our `order.*` events (order.md "Order
 * Event Webhook" of each release): the whole UCP order as it stands after the change (never a
 * delta), in the release of the checkout that placed it, signed with the business's newest active
 * signing key — whose public JWK `/.well-known/ucp` publishes in `signing_keys`:
 *
 * - 2026-04-08: body = the order; `Webhook-Id` (our event id, the same on every attempt),
 *   `Webhook-Timestamp` (the event's time, Unix seconds), `UCP-Agent: profile="<business profile>"`,
 *   then RFC 9421 `Signature-Input`/`Signature` (ES256) over @method @authority @path ucp-agent
 *   content-digest content-type, and `Content-Digest` (rest.openapi.json `order_event_webhook`).
 * - 2026-01-11: body = the order + `event_id` + `created_time` (its `order_event_webhook` body);
 *   a detached JWS (RFC 7797, ES256, `kid`) over the body in `Request-Signature`; `UCP-Agent`
 *   too, as that release asks for the business's identity "in webhook path or headers".
 *
 * The release shapes the body and signs it (releases/: `orderWebhook`). Rebuilt from the stored
 * event at each attempt (the signature's `created` is the attempt's time). An event without an
 * order, or no signing key, fails the attempt (retried: keys may be loaded).
 */
import type { WebhookEvent } from '../../contract/types.js';
import { orderPermalink, type PermalinkSettings } from '../../storefront/order-permalink.js';
import { DeliveryError } from '../../kernel/outbound/delivery-errors.js';
import { orderOfEvent } from '../order/order-of-event.js';
import { toUcpOrder } from '../order/ucp-order.js';
import { releaseOf } from '../releases/releases.js';
import type { SigningKeys } from '../signing-keys.js';
import { isUcpVersion } from '../ucp-version.js';

export interface UcpWebhookSettings {
  /** The key to sign with now (the ring's newest active key). */
  signer: () => SigningKeys['signer'];
  /** The business's profile URL (`<public origin>/.well-known/ucp`), sent in `UCP-Agent`. */
  businessProfileUrl: string;
  permalinks?: PermalinkSettings | undefined;
}

export interface UcpWebhookTarget {
  url: string;
  merchantId: string;
  protocolVersion: string | null;
}

export function ucpOrderWebhook(target: UcpWebhookTarget, event: WebhookEvent, settings: UcpWebhookSettings, now: Date): { body: string; headers: Record<string, string> } {
  const version = target.protocolVersion;
  if (!version || !isUcpVersion(version)) throw new DeliveryError(`UCP endpoint has no known UCP version (${String(version)})`);
  const order = orderOfEvent(event.data.object);
  if (!order) throw new DeliveryError(`event ${event.id} (${event.type}) carries no order for a UCP webhook`);
  const signer = settings.signer();
  if (!signer) throw new DeliveryError('no UCP signing key to sign with (set UCP_SIGNING_KEY or run `gateway ucp keys rotate`)');
  const ucpOrder = toUcpOrder(order, version, orderPermalink(settings.permalinks ?? {}, target.merchantId, order.id));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'UCP-Agent': `profile="${settings.businessProfileUrl}"`,
    'Webhook-Id': event.id,
    'Webhook-Timestamp': String(Math.floor(Date.parse(event.created) / 1000)),
  };
  return releaseOf(version).orderWebhook({ order: ucpOrder, event: { id: event.id, created: event.created }, url: target.url, headers, signer, now });
}

/** The worker's format for `ucp` endpoints (delivery-worker.ts `formats.ucp`). */
export function ucpWebhookFormat(settings: UcpWebhookSettings): (endpoint: UcpWebhookTarget, event: WebhookEvent, now: Date) => { body: string; headers: Record<string, string> } {
  return (endpoint, event, now) => ucpOrderWebhook(endpoint, event, settings, now);
}
