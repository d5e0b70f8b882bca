/**
 * The webhook payload `{id, type, created, data: {object}}` and its bytes.
 * The body is serialized once per attempt, and the signature covers exactly
 * those bytes.
 */
import type { WebhookEvent, WebhookEventType } from '../contract/types.js';
import { newId } from '../kernel/ids.js';

/** Builds the event payload with a fresh `evt_…` id. */
export function buildEvent(type: WebhookEventType, object: Record<string, unknown>, now = new Date()): WebhookEvent {
  return { id: newId('evt'), type, created: now.toISOString(), data: { object } };
}

/**
 * The bytes of an event, fields in contract order (an event read back from a JSONB column comes
 * with its keys re-ordered; re-serializing the same stored event always gives the same bytes).
 */
export function serializeEvent(event: WebhookEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, created: event.created, data: { object: event.data.object } });
}
