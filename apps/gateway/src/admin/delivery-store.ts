/**
 * What the admin API reads and changes of webhook endpoints and deliveries beyond
 * WebhookEndpointService: a merchant's endpoints, disabling and removing one, the deliveries of an
 * endpoint or an event with every attempt, and a resend — the delivery queued again in the outbox,
 * so the delivery worker makes a new attempt of the same event.
 */
import type { Database } from '../db/database.js';
import { after, NEWEST_FIRST, pageOf, type Page, type PageParams } from './page-cursor.js';

export interface EndpointView {
  id: string;
  merchantId: string;
  url: string;
  protocol: string;
  disabledAt: Date | null;
  createdAt: Date;
  previousSecretExpiresAt: Date | null;
}

export interface AttemptView {
  number: number;
  createdAt: Date;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  /** The receiver's response body, its first 512 bytes as text; null when it gave no answer. */
  responseExcerpt: string | null;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  /** The endpoint's URL: what an operator names it by. */
  endpointUrl: string;
  merchantId: string;
  state: string;
  attemptCount: number;
  /** When the next attempt is due; null once the delivery is over. */
  nextAttemptAt: Date | null;
  createdAt: Date;
  attempts: AttemptView[];
}

const endpointFields = { id: true, merchantId: true, url: true, protocol: true, disabledAt: true, createdAt: true, previousSecretExpiresAt: true } as const;

const withAttempts = {
  event: { select: { type: true, merchantId: true } },
  endpoint: { select: { url: true } },
  attempts: { orderBy: { number: 'asc' as const }, select: { number: true, createdAt: true, responseStatus: true, error: true, durationMs: true, responseExcerpt: true } },
} as const;

type DeliveryRow = NonNullable<Awaited<ReturnType<DeliveryStore['deliveryRow']>>>;

function toDelivery(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.event.type,
    endpointId: row.endpointId,
    endpointUrl: row.endpoint.url,
    merchantId: row.event.merchantId,
    state: row.state,
    attemptCount: row.attemptCount,
    nextAttemptAt: row.state === 'pending' ? row.nextAttemptAt : null,
    createdAt: row.createdAt,
    attempts: row.attempts,
  };
}

export class DeliveryStore {
  constructor(private readonly db: Pick<Database, 'prisma'>) {}

  async endpoints(merchantId: string, params: PageParams): Promise<Page<EndpointView>> {
    const rows = await this.db.prisma.webhookEndpoint.findMany({
      where: { AND: [{ merchantId }, after(params.cursor)] },
      select: endpointFields,
      orderBy: NEWEST_FIRST,
      take: params.limit + 1,
    });
    return pageOf(rows, params.limit, (row) => row);
  }

  async endpoint(id: string): Promise<EndpointView | undefined> {
    return (await this.db.prisma.webhookEndpoint.findUnique({ where: { id }, select: endpointFields })) ?? undefined;
  }

  /** Sets disabled_at (the worker abandons its pending deliveries when it next claims them). */
  async disable(id: string): Promise<void> {
    await this.db.prisma.webhookEndpoint.updateMany({ where: { id, disabledAt: null }, data: { disabledAt: new Date() } });
  }

  /** Removes the endpoint with its deliveries and their attempts. */
  async remove(id: string): Promise<void> {
    await this.db.prisma.webhookEndpoint.deleteMany({ where: { id } });
  }

  private deliveryRow(id: string) {
    return this.db.prisma.webhookDelivery.findUnique({ where: { id }, include: withAttempts });
  }

  async delivery(id: string): Promise<DeliveryView | undefined> {
    const row = await this.deliveryRow(id);
    return row ? toDelivery(row) : undefined;
  }

  async deliveries(where: { endpointId: string } | { eventId: string }, params: PageParams): Promise<Page<DeliveryView>> {
    const rows = await this.db.prisma.webhookDelivery.findMany({
      where: { AND: [where, after(params.cursor)] },
      include: withAttempts,
      orderBy: NEWEST_FIRST,
      take: params.limit + 1,
    });
    return pageOf(rows, params.limit, toDelivery);
  }

  /** The merchant of an event, when it exists. */
  async eventMerchant(eventId: string): Promise<string | undefined> {
    return (await this.db.prisma.webhookEvent.findUnique({ where: { id: eventId }, select: { merchantId: true } }))?.merchantId;
  }

  /** Queues the delivery again, due now: the worker's next poll makes a new attempt of the same event. */
  async requeue(id: string): Promise<void> {
    await this.db.prisma.webhookDelivery.update({ where: { id }, data: { state: 'pending', nextAttemptAt: new Date() } });
  }

  /** The events about this order, oldest first: its own (order.*, the order as object) and order.created (the completed session, the order in it). */
  async orderEvents(merchantId: string, orderId: string): Promise<{ id: string; type: string; createdAt: Date }[]> {
    return this.db.prisma.$queryRaw<{ id: string; type: string; createdAt: Date }[]>`
      SELECT id, type, created_at AS "createdAt" FROM webhook_events
      WHERE merchant_id = ${merchantId}
        AND ${orderId} IN (payload::jsonb #>> '{data,object,id}', payload::jsonb #>> '{data,object,order,id}')
      ORDER BY created_at, id`;
  }

  async deliveriesOfEvents(eventIds: string[]): Promise<DeliveryView[]> {
    if (eventIds.length === 0) return [];
    const rows = await this.db.prisma.webhookDelivery.findMany({ where: { eventId: { in: eventIds } }, include: withAttempts, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map(toDelivery);
  }
}
