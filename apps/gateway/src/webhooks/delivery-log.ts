/**
 * The delivery log for operators (the admin API, the console): its reads (delivery-log-store.ts),
 * each endpoint's health (endpoint-health-store.ts) and a resend — the delivery queued again, due now, through WebhookStore, the same write as
 * `gateway webhooks resend` (WebhookEndpointService.resend), so the worker makes a new attempt of
 * the same event. Whether the endpoint may be sent to is the caller's check (it words the refusal).
 */
import { NotFoundError } from '../kernel/errors.js';
import type { DeliveryLogStore, DeliveryView, EndpointView, PageRead } from './delivery-log-store.js';
import { type EndpointHealth, type EndpointHealthStore, healthOf } from './endpoint-health-store.js';
import type { WebhookStore } from './webhook-store.js';

export class DeliveryLog {
  constructor(
    private readonly store: DeliveryLogStore,
    private readonly webhooks: Pick<WebhookStore, 'resendDelivery'>,
    private readonly healths: Pick<EndpointHealthStore, 'ofMerchant'>,
  ) {}

  /** How each of the merchant's endpoints has been answering (endpoint-health-store.ts), by endpoint id. */
  async health(merchantId: string): Promise<(endpointId: string) => EndpointHealth> {
    const all = await this.healths.ofMerchant(merchantId);
    return (endpointId) => healthOf(all, endpointId);
  }

  endpoints(merchantId: string, page: PageRead): Promise<EndpointView[]> {
    return this.store.endpoints(merchantId, page);
  }

  endpoint(id: string): Promise<EndpointView | undefined> {
    return this.store.endpoint(id);
  }

  delivery(id: string): Promise<DeliveryView | undefined> {
    return this.store.delivery(id);
  }

  deliveries(where: { endpointId: string } | { eventId: string }, page: PageRead): Promise<DeliveryView[]> {
    return this.store.deliveries(where, page);
  }

  /** The merchant of an event, when it exists. */
  eventMerchant(eventId: string): Promise<string | undefined> {
    return this.store.eventMerchant(eventId);
  }

  /** The events about this order, oldest first, each with its deliveries. */
  async ofOrder(merchantId: string, orderId: string): Promise<{ id: string; type: string; createdAt: Date; deliveries: DeliveryView[] }[]> {
    const events = await this.store.orderEvents(merchantId, orderId);
    const sent = await this.store.deliveriesOfEvents(events.map((e) => e.id));
    return events.map((e) => ({ ...e, deliveries: sent.filter((d) => d.eventId === e.id) }));
  }

  /** Queues the delivery again, due now (pending, whatever its state); NotFoundError when there is no such delivery. */
  async requeue(id: string, now = new Date()): Promise<void> {
    if (!(await this.webhooks.resendDelivery(id, now))) throw new NotFoundError(`no webhook delivery ${JSON.stringify(id)}`);
  }
}
