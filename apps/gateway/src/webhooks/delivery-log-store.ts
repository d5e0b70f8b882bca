/**
 * The delivery log as operators read it (the admin API, the console): a merchant's endpoints a page
 * at a time, the deliveries of an endpoint, an event or an order with every attempt. Reads only:
 * endpoints and deliveries change through WebhookStore (webhook-store.ts), which the delivery
 * worker and WebhookEndpointService use too. Pages are newest first (ties by id descending),
 * after a position the caller's cursor names; the caller asks for one row more to know if more follow.
 */
import type { Database } from '../db/database.js';

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

/** Where a newest-first page starts: after the item of that creation time and id. */
export interface PagePosition {
  createdAt: Date;
  id: string;
}

/** A page of `take` rows newest first after `position` (`take`: the caller's limit + 1). */
export interface PageRead {
  position: PagePosition | undefined;
  take: number;
}

const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

const after = (position: PagePosition | undefined) =>
  position ? { OR: [{ createdAt: { lt: position.createdAt } }, { createdAt: position.createdAt, id: { lt: position.id } }] } : {};

const endpointFields = { id: true, merchantId: true, url: true, protocol: true, disabledAt: true, createdAt: true, previousSecretExpiresAt: true } as const;

const withAttempts = {
  event: { select: { type: true, merchantId: true } },
  endpoint: { select: { url: true } },
  attempts: { orderBy: { number: 'asc' as const }, select: { number: true, createdAt: true, responseStatus: true, error: true, durationMs: true, responseExcerpt: true } },
} as const;

type DeliveryRow = NonNullable<Awaited<ReturnType<DeliveryLogStore['deliveryRow']>>>;

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

export class DeliveryLogStore {
  constructor(private readonly db: Pick<Database, 'prisma'>) {}

  async endpoints(merchantId: string, page: PageRead): Promise<EndpointView[]> {
    return this.db.prisma.webhookEndpoint.findMany({
      where: { AND: [{ merchantId }, after(page.position)] },
      select: endpointFields,
      orderBy: NEWEST_FIRST,
      take: page.take,
    });
  }

  async endpoint(id: string): Promise<EndpointView | undefined> {
    return (await this.db.prisma.webhookEndpoint.findUnique({ where: { id }, select: endpointFields })) ?? undefined;
  }

  private deliveryRow(id: string) {
    return this.db.prisma.webhookDelivery.findUnique({ where: { id }, include: withAttempts });
  }

  async delivery(id: string): Promise<DeliveryView | undefined> {
    const row = await this.deliveryRow(id);
    return row ? toDelivery(row) : undefined;
  }

  async deliveries(where: { endpointId: string } | { eventId: string }, page: PageRead): Promise<DeliveryView[]> {
    const rows = await this.db.prisma.webhookDelivery.findMany({
      where: { AND: [where, after(page.position)] },
      include: withAttempts,
      orderBy: NEWEST_FIRST,
      take: page.take,
    });
    return rows.map(toDelivery);
  }

  /** The merchant of an event, when it exists. */
  async eventMerchant(eventId: string): Promise<string | undefined> {
    return (await this.db.prisma.webhookEvent.findUnique({ where: { id: eventId }, select: { merchantId: true } }))?.merchantId;
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
