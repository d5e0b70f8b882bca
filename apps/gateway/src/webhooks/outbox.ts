/**
 * The outbox: an event is written in the same transaction as the change it
 * reports, with one pending delivery per enabled endpoint of the merchant.
 * The delivery worker (delivery-worker.ts) sends them, at least once, with
 * the same event id on every attempt. Written through OutboxStore (outbox-store.ts),
 * or, as part of a larger statement, by a store that embeds `outboxEntry`'s CTEs.
 */
import type { WebhookEvent, WebhookEventType } from '../contract/types.js';
import { utc } from '../db/sql-time.js';
import { sql, type Statement } from '../db/statement.js';
import { acpEventType } from './acp/acp-event.js';
import { buildEvent } from './event.js';

export { buildEvent } from './event.js';

export interface NewEvent {
  merchantId: string;
  type: WebhookEventType;
  object: Record<string, unknown>;
}

/** An event and what writes it: two CTEs (`outbox_event`, `outbox_deliveries`) to put in a statement's WITH. */
export interface OutboxEntry {
  event: WebhookEvent;
  ctes: Statement;
}

/**
 * The event, and the SQL that stores it with a pending delivery for each enabled endpoint of the
 * merchant that takes it (ACP endpoints only the events that have an ACP form: order_create,
 * order_update). Set-based, so that writing an event is part of one statement, however many
 * endpoints there are. (Delivery ids are internal: `wd_` and a random UUID's hex.)
 *
 * An `order.*` event of an order placed through UCP — its checkout session's `protocol_state` is
 * `{"protocol": "ucp", "version", "order_webhook_url", …}` — also gets one delivery to that
 * platform URL: to the merchant's `ucp` endpoint row of that URL and version, made here by the
 * first such order (`ON CONFLICT … DO UPDATE` returns the row either way; a row disabled by a 410
 * stays disabled). Merchant-wide deliveries never go to `ucp` rows.
 */
export function outboxEntry(event: NewEvent, now = new Date()): OutboxEntry {
  const payload = buildEvent(event.type, event.object, now);
  const everyProtocol = acpEventType(payload.type) !== null;
  const ctes = sql`
    outbox_event AS (
      INSERT INTO webhook_events (id, merchant_id, type, payload, created_at)
      VALUES (${payload.id}, ${event.merchantId}, ${payload.type}, ${JSON.stringify(payload)}::json, ${utc(now)})
      RETURNING id),
    outbox_deliveries AS (
      INSERT INTO webhook_deliveries (id, event_id, endpoint_id, next_attempt_at)
      SELECT 'wd_' || replace(gen_random_uuid()::text, '-', ''), e.id, ep.id, ${utc(now)}
      FROM outbox_event AS e, webhook_endpoints AS ep
      WHERE ep.merchant_id = ${event.merchantId} AND ep.disabled_at IS NULL AND (ep.protocol = 'gateway' OR (${everyProtocol} AND ep.protocol = 'acp')))`;
  const sessionId = everyProtocol ? sessionIdOf(event.object) : null;
  if (!sessionId) return { event: payload, ctes };
  const ucp = sql`,
    outbox_ucp_endpoint AS (
      INSERT INTO webhook_endpoints (id, merchant_id, url, protocol, protocol_version, secret)
      SELECT 'we_' || replace(gen_random_uuid()::text, '-', ''), s.merchant_id, s.protocol_state->>'order_webhook_url', 'ucp'::"WebhookProtocol", s.protocol_state->>'version', ''
      FROM checkout_sessions AS s
      WHERE s.id = ${sessionId} AND s.merchant_id = ${event.merchantId}
        AND s.protocol_state->>'protocol' = 'ucp' AND s.protocol_state->>'order_webhook_url' IS NOT NULL AND s.protocol_state->>'version' IS NOT NULL
      ON CONFLICT (merchant_id, url, protocol_version) DO UPDATE SET protocol = EXCLUDED.protocol
      RETURNING id, disabled_at),
    outbox_ucp_deliveries AS (
      INSERT INTO webhook_deliveries (id, event_id, endpoint_id, next_attempt_at)
      SELECT 'wd_' || replace(gen_random_uuid()::text, '-', ''), e.id, u.id, ${utc(now)}
      FROM outbox_event AS e, outbox_ucp_endpoint AS u
      WHERE u.disabled_at IS NULL)`;
  return { event: payload, ctes: sql`${ctes}${ucp}` };
}

/** The checkout session of an order event's object: an `Order`'s `checkout_session_id`, or the completed session itself (`order.created`). */
function sessionIdOf(object: Record<string, unknown>): string | null {
  if (typeof object.checkout_session_id === 'string') return object.checkout_session_id;
  const order = object.order as { id?: unknown } | null | undefined;
  return typeof object.id === 'string' && typeof order === 'object' && order !== null && typeof order.id === 'string' ? object.id : null;
}
