/**
 * The outbox: an event is written in the same transaction as the change it
 * reports, with one pending delivery per enabled endpoint of the merchant.
 * The delivery worker (delivery-worker.ts) sends them, at least once, with
 * the same event id on every attempt. Written through OutboxStore (outbox-store.ts),
 * or, as part of a larger statement, by a store that embeds `outboxEntry`'s CTEs.
 */
import type { WebhookEvent, WebhookEventType } from '../contract-types.js';
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
      WHERE ep.merchant_id = ${event.merchantId} AND ep.disabled_at IS NULL AND (${everyProtocol} OR ep.protocol = 'gateway'))`;
  return { event: payload, ctes };
}
