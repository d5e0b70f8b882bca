/**
 * The outbox: an event is written in the same transaction as the change it
 * reports, with one pending delivery per enabled endpoint of the merchant.
 * The delivery worker sends them, at least once, with the same event id.
 */
import type { WebhookEvent, WebhookEventType } from '../contract-types.js';
import type { Tx } from '../db/transaction.js';
import { newId } from '../ids.js';

export interface NewEvent {
  merchantId: string;
  type: WebhookEventType;
  object: Record<string, unknown>;
}

/** Builds the event payload `{id, type, created, data: {object}}`. */
export function buildEvent(type: WebhookEventType, object: Record<string, unknown>, now = new Date()): WebhookEvent {
  return { id: newId('evt'), type, created: now.toISOString(), data: { object } };
}

export async function enqueueEvent(tx: Tx, event: NewEvent): Promise<WebhookEvent> {
  const payload = buildEvent(event.type, event.object);
  await tx.webhookEvent.create({
    data: { id: payload.id, merchantId: event.merchantId, type: payload.type, payload: payload as object, createdAt: new Date(payload.created) },
  });
  const endpoints = await tx.webhookEndpoint.findMany({ where: { merchantId: event.merchantId, disabledAt: null }, select: { id: true } });
  if (endpoints.length) {
    await tx.webhookDelivery.createMany({
      data: endpoints.map((endpoint) => ({ id: newId('wd'), eventId: payload.id, endpointId: endpoint.id })),
    });
  }
  return payload;
}
