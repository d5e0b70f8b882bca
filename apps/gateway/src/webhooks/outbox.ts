/**
 * The outbox: an event is written in the same transaction as the change it
 * reports, with one pending delivery per enabled endpoint of the merchant.
 * The delivery worker (delivery-worker.ts) sends them, at least once, with
 * the same event id on every attempt.
 */
import type { WebhookEvent, WebhookEventType } from '../contract-types.js';
import type { Tx } from '../db/transaction.js';
import { newId } from '../ids.js';
import { acpEventType } from './acp/acp-event.js';
import { buildEvent } from './event.js';

export { buildEvent } from './event.js';

export interface NewEvent {
  merchantId: string;
  type: WebhookEventType;
  object: Record<string, unknown>;
}

export async function enqueueEvent(tx: Tx, event: NewEvent): Promise<WebhookEvent> {
  const now = new Date();
  const payload = buildEvent(event.type, event.object, now);
  await tx.webhookEvent.create({
    data: { id: payload.id, merchantId: event.merchantId, type: payload.type, payload: payload as object, createdAt: now },
  });
  const acp = acpEventType(payload.type) !== null;
  const endpoints = await tx.webhookEndpoint.findMany({
    // ACP endpoints get only the events that have an ACP form (order_create, order_update).
    where: { merchantId: event.merchantId, disabledAt: null, ...(acp ? {} : { protocol: 'gateway' }) },
    select: { id: true },
  });
  if (endpoints.length) {
    await tx.webhookDelivery.createMany({
      data: endpoints.map((endpoint) => ({ id: newId('wd'), eventId: payload.id, endpointId: endpoint.id, nextAttemptAt: now })),
    });
  }
  return payload;
}
