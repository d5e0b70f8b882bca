/**
 * The webhooks' only access to the database: claiming due deliveries (row
 * locks with SKIP LOCKED, so any number of workers and replicas can share
 * the outbox), recording attempts, and the endpoints' secrets.
 */
import type { WebhookEvent } from '../contract/types.js';
import type { Database } from '../db/database.js';
import { utc } from '../db/sql-time.js';
import { sql } from '../db/statement.js';
import type { Tx } from '../db/transaction.js';
import { newId } from '../kernel/ids.js';
import { MerchantStore } from '../merchants/merchant-store.js';
import type { EndpointSecrets } from './endpoint-secrets.js';

/**
 * `gateway`: our events and X-Webhook-Signature; `acp`: ACP 2026-04-17 order webhooks and Merchant-Signature;
 * `ucp`: UCP order webhooks to a platform's webhook URL, in the release of `protocolVersion`, signed with the
 * business's UCP signing key (made by the outbox for orders placed through UCP — see outbox.ts).
 */
export type WebhookProtocol = 'gateway' | 'acp' | 'ucp';

export interface EndpointRow extends EndpointSecrets {
  id: string;
  merchantId: string;
  url: string;
  protocol: WebhookProtocol;
  /** The UCP release of a `ucp` endpoint; null for the others. */
  protocolVersion: string | null;
  disabledAt: Date | null;
}

/** A delivery this worker holds until `leaseUntil`; `attempt` is the number of the attempt it may make. */
export interface ClaimedDelivery {
  id: string;
  attempt: number;
  event: WebhookEvent;
  endpoint: EndpointRow;
}

export type DeliveryOutcome =
  | { state: 'pending'; nextAttemptAt: Date }
  | { state: 'succeeded' | 'failed' }
  /** The endpoint is gone (410) or disabled: no more attempts for any of its deliveries. */
  | { state: 'abandoned'; disableEndpoint: boolean };

export interface EndpointSummary {
  id: string;
  merchantId: string;
  url: string;
  protocol: WebhookProtocol;
  disabledAt: Date | null;
  createdAt: Date;
}

export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'abandoned';

export interface DeliveryFilter {
  deliveryId?: string | undefined;
  merchantId?: string | undefined;
  endpointId?: string | undefined;
  state?: DeliveryState | undefined;
  limit: number;
}

export interface DeliveryRecord {
  id: string;
  endpointId: string;
  state: DeliveryState;
  attemptCount: number;
  nextAttemptAt: Date;
  createdAt: Date;
  event: { id: string; type: string; merchantId: string };
  attempts: { number: number; responseStatus: number | null; error: string | null; durationMs: number; createdAt: Date }[];
}

export interface AttemptRecord {
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  /** The receiver's response body, its first bytes as text (response-excerpt.ts); null when no answer came. */
  responseExcerpt: string | null;
}


export class WebhookStore {
  private readonly prisma: Database['prisma'];
  /** Whether a merchant exists is the merchants' own read. */
  private readonly merchants: MerchantStore;

  constructor(private readonly db: Pick<Database, 'prisma' | 'sql' | 'transaction'>) {
    this.prisma = db.prisma;
    this.merchants = new MerchantStore(db);
  }

  /**
   * Claims up to `limit` due pending deliveries in one statement (its own short transaction): locks
   * them, skipping rows other workers hold, moves next_attempt_at to `now + leaseMs` as a lease, and
   * counts the attempt. A worker that dies mid-attempt loses its lease; the delivery is tried again.
   */
  async claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    const leaseUntil = new Date(now.getTime() + leaseMs);
    const claimed = await this.db.sql.query<{ id: string; attempt_count: number }>(sql`
      WITH due AS MATERIALIZED (
        SELECT id FROM webhook_deliveries
        WHERE state = 'pending' AND next_attempt_at <= ${utc(now)}
        ORDER BY next_attempt_at
        LIMIT ${limit}::int
        FOR UPDATE SKIP LOCKED)
      UPDATE webhook_deliveries AS d
      SET next_attempt_at = ${utc(leaseUntil)}, attempt_count = d.attempt_count + 1
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.attempt_count`);
    if (!claimed.length) return [];
    const attempts = new Map(claimed.map((row) => [row.id, Number(row.attempt_count)]));
    const rows = await this.prisma.webhookDelivery.findMany({
      where: { id: { in: [...attempts.keys()] } },
      include: { event: true, endpoint: true },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((row) => ({
      id: row.id,
      attempt: attempts.get(row.id)!,
      event: row.event.payload as unknown as WebhookEvent,
      endpoint: row.endpoint,
    }));
  }

  /**
   * Records an attempt and the delivery's new state in one transaction. The state changes only while
   * this worker still holds the attempt (no other worker claimed it since); returns whether it did.
   */
  async recordAttempt(claim: ClaimedDelivery, attempt: AttemptRecord | null, outcome: DeliveryOutcome, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      if (attempt) {
        await tx.execute(sql`
          INSERT INTO webhook_attempts (id, delivery_id, number, response_status, error, duration_ms, response_excerpt, created_at)
          VALUES (${newId('wa')}, ${claim.id}, ${claim.attempt}, ${attempt.responseStatus}::int, ${attempt.error}::text, ${attempt.durationMs}, ${attempt.responseExcerpt}::text, ${utc(now)})`);
      }
      const change = outcome.state === 'pending' ? sql`next_attempt_at = ${utc(outcome.nextAttemptAt)}` : sql`state = ${outcome.state}::"DeliveryState"`;
      const count = await tx.execute(sql`
        UPDATE webhook_deliveries SET ${change} WHERE id = ${claim.id} AND state = 'pending' AND attempt_count = ${claim.attempt}`);
      if (outcome.state === 'abandoned' && outcome.disableEndpoint) {
        await tx.execute(sql`UPDATE webhook_endpoints SET disabled_at = ${utc(now)} WHERE id = ${claim.endpoint.id} AND disabled_at IS NULL`);
        await tx.execute(sql`UPDATE webhook_deliveries SET state = 'abandoned' WHERE endpoint_id = ${claim.endpoint.id} AND state = 'pending'`);
      }
      return count === 1;
    });
  }

  merchantExists(merchantId: string): Promise<boolean> {
    return this.merchants.exists(merchantId);
  }

  async createEndpoint(merchantId: string, url: string, secret: string, protocol: WebhookProtocol = 'gateway'): Promise<EndpointRow> {
    return this.prisma.webhookEndpoint.create({ data: { id: newId('we'), merchantId, url, secret, protocol } });
  }

  async findEndpoint(id: string): Promise<EndpointRow | null> {
    return this.prisma.webhookEndpoint.findUnique({ where: { id } });
  }

  /** Clears disabled_at; false when there is no such endpoint. */
  async enableEndpoint(id: string): Promise<boolean> {
    const { count } = await this.prisma.webhookEndpoint.updateMany({ where: { id }, data: { disabledAt: null } });
    return count === 1;
  }

  /**
   * Sets disabled_at (no new deliveries; the worker abandons the pending ones); false when there is no
   * such endpoint. An endpoint disabled already keeps the time it was first disabled (as when the
   * worker disables one that answered 410): disabling again changes nothing.
   */
  async disableEndpoint(id: string, now: Date): Promise<boolean> {
    const count = await this.db.sql.execute(sql`UPDATE webhook_endpoints SET disabled_at = coalesce(disabled_at, ${utc(now)}) WHERE id = ${id}`);
    return count === 1;
  }

  /** Deletes the endpoint with its deliveries and their attempts; false when there is no such endpoint. */
  async removeEndpoint(id: string): Promise<boolean> {
    const { count } = await this.prisma.webhookEndpoint.deleteMany({ where: { id } });
    return count === 1;
  }

  /** Endpoints, of one merchant or all, oldest first (secrets left out). */
  async listEndpoints(merchantId?: string): Promise<EndpointSummary[]> {
    return this.prisma.webhookEndpoint.findMany({
      where: merchantId ? { merchantId } : {},
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, merchantId: true, url: true, protocol: true, disabledAt: true, createdAt: true },
    });
  }

  /** Deliveries, newest first, with their event and every attempt. */
  async listDeliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    const rows = await this.prisma.webhookDelivery.findMany({
      where: {
        ...(filter.deliveryId ? { id: filter.deliveryId } : {}),
        ...(filter.endpointId ? { endpointId: filter.endpointId } : {}),
        ...(filter.merchantId ? { endpoint: { merchantId: filter.merchantId } } : {}),
        ...(filter.state ? { state: filter.state } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: filter.limit,
      select: {
        id: true,
        endpointId: true,
        state: true,
        attemptCount: true,
        nextAttemptAt: true,
        createdAt: true,
        event: { select: { id: true, type: true, merchantId: true } },
        attempts: { orderBy: { number: 'asc' }, select: { number: true, responseStatus: true, error: true, durationMs: true, createdAt: true } },
      },
    });
    return rows;
  }

  /** Makes a delivery due again now (pending), whatever its state; false when there is no such delivery. */
  async resendDelivery(id: string, now: Date): Promise<boolean> {
    const { count } = await this.prisma.webhookDelivery.updateMany({ where: { id }, data: { state: 'pending', nextAttemptAt: now } });
    return count === 1;
  }

  /**
   * Rewrites with `scrub` the merchant's stored events whose payload names any of `ids` (customers'
   * erasure: customers/buyer-events.ts), locked, in the caller's transaction; pending deliveries
   * then send the scrubbed payload. How many.
   */
  async scrubEvents(tx: Tx, merchantId: string, ids: readonly string[], scrub: (payload: unknown) => unknown): Promise<number> {
    if (ids.length === 0) return 0;
    const events = await tx.query<{ id: string; payload: string }>(sql`
      SELECT e.id, e.payload::text AS payload FROM webhook_events AS e
      WHERE e.merchant_id = ${merchantId} AND EXISTS (SELECT 1 FROM unnest(${[...ids]}::text[]) AS x(id) WHERE strpos(e.payload::text, x.id) > 0)
      ORDER BY e.id FOR UPDATE`);
    for (const event of events) {
      await tx.execute(sql`UPDATE webhook_events SET payload = ${JSON.stringify(scrub(JSON.parse(event.payload)))}::json WHERE id = ${event.id}`);
    }
    return events.length;
  }

  /** Replaces the endpoint's secrets only if its current secret is still `expectedSecret` (no lost rotation). */
  async replaceSecrets(id: string, expectedSecret: string, secrets: EndpointSecrets): Promise<boolean> {
    const { count } = await this.prisma.webhookEndpoint.updateMany({ where: { id, secret: expectedSecret }, data: secrets });
    return count === 1;
  }
}
