/**
 * Works the outbox: polls due deliveries, claims a batch (webhook-store.ts:
 * row locks with SKIP LOCKED, next_attempt_at moved forward as a lease),
 * sends each outside any transaction, then records the attempt and the new
 * state. Each endpoint gets the event in its protocol: ours, signed with
 * X-Webhook-Signature, ACP's order webhook (acp/acp-event.ts), or a protocol whose format the
 * process plugs in (`formats`: UCP's order webhooks, ucp/webhooks/). At least once, the same event id
 * on every attempt; 2xx succeeds, 410 disables the endpoint, a target the SSRF guard refuses fails
 * at once (its reason recorded on the attempt; no retry can change it), anything else is retried
 * on the schedule.
 *
 *   const worker = new DeliveryWorker({ store: new WebhookStore(db), allowPrivateTargets: false, logger });
 *   worker.start();
 *   …
 *   await worker.stop(); // waits for the attempts in flight
 */
import { sign } from '@commerce-gateway/webhooks';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { DeliveryError, UnsafeTargetError } from '../kernel/outbound/delivery-errors.js';
import { signingSecrets } from './endpoint-secrets.js';
import { serializeEvent } from './event.js';
import { DELIVERY_TIMEOUT_MS, postWebhook, type SendWebhook } from '../kernel/outbound/http-delivery.js';
import { nextRetryDelay, DEFAULT_RETRY_SCHEDULE } from './retry-schedule.js';
import { vetTarget, type Resolver } from '../kernel/outbound/safe-target.js';
import { WebhookStore, type AttemptRecord, type ClaimedDelivery, type DeliveryOutcome, type EndpointRow, type WebhookProtocol } from './webhook-store.js';
import { AcpEventError, acpHeaders, serializeAcpEvent } from './acp/acp-event.js';
import type { WebhookEvent } from '../contract/types.js';
import type { PermalinkSettings } from '../storefront/order-permalink.js';
import { PollingLoop } from '../kernel/concurrency/polling-loop.js';

/** The bytes and headers of one attempt to an endpoint of a protocol plugged into the worker; throws DeliveryError when it cannot be sent now. */
export type WebhookFormat = (endpoint: EndpointRow, event: WebhookEvent, now: Date) => { body: string; headers: Record<string, string> };

export interface DeliveryWorkerOptions {
  store: WebhookStore;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS. */
  allowPrivateTargets: boolean;
  /** ORDER_URL_TEMPLATE and STOREFRONT_URL: where the order permalinks of ACP deliveries point. */
  permalinks?: PermalinkSettings | undefined;
  logger?: Logger | undefined;
  /** Formats of the protocols the worker does not know itself (`ucp`: see ucp/webhooks/ucp-order-webhook.ts). */
  formats?: Partial<Record<WebhookProtocol, WebhookFormat>>;
  /** Delay before each attempt (see retry-schedule.ts); its length is the number of attempts. */
  schedule?: readonly number[];
  random?: () => number;
  /** Pause between polls when nothing was due. */
  pollIntervalMs?: number;
  /** Deliveries claimed, and sent concurrently, per poll. */
  batchSize?: number;
  timeoutMs?: number;
  /** How long a claim holds a delivery; must exceed the longest attempt. */
  leaseMs?: number;
  resolve?: Resolver;
  send?: SendWebhook;
  now?: () => Date;
  /** Called after each recorded attempt (e.g. to count it in metrics); `state` is the delivery's new state. */
  onAttempt?: (attempt: { state: DeliveryOutcome['state']; status: number | null; durationMs: number }) => void;
}

export class DeliveryWorker {
  private readonly store: WebhookStore;
  private readonly send: SendWebhook;
  private readonly now: () => Date;
  private readonly timeoutMs: number;
  private readonly loop: PollingLoop;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.store = options.store;
    this.send = options.send ?? postWebhook;
    this.now = options.now ?? (() => new Date());
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.loop = new PollingLoop(() => this.runOnce(), options.pollIntervalMs ?? 1000, (error) =>
      options.logger?.warn({ err: error }, 'webhook worker could not poll the outbox'),
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling and resolves once the attempts in flight are recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Polls now instead of at the next interval (e.g. right after an event was enqueued). */
  nudge(): void {
    this.loop.nudge();
  }

  /** Claims the due deliveries once and attempts them all; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const leaseMs = this.options.leaseMs ?? this.timeoutMs + 50_000;
    const claims = await this.store.claimDue(this.now(), leaseMs, this.options.batchSize ?? 10);
    const results = await Promise.allSettled(claims.map((claim) => this.attempt(claim)));
    for (const result of results) {
      if (result.status === 'rejected') this.options.logger?.error({ err: result.reason }, 'webhook attempt could not be recorded');
    }
    return claims.length;
  }

  private async attempt(claim: ClaimedDelivery): Promise<void> {
    const { endpoint, event } = claim;
    if (endpoint.disabledAt) {
      await this.store.recordAttempt(claim, null, { state: 'abandoned', disableEndpoint: false }, this.now());
      return;
    }
    const { refused, ...record } = await this.post(claim);
    const outcome: DeliveryOutcome = refused ? { state: 'failed' } : this.outcomeOf(claim.attempt, record.responseStatus);
    const kept = await this.store.recordAttempt(claim, record, outcome, this.now());
    this.options.onAttempt?.({ state: outcome.state, status: record.responseStatus, durationMs: record.durationMs });
    this.options.logger?.info(
      {
        eventId: event.id,
        deliveryId: claim.id,
        endpointId: endpoint.id,
        host: hostOf(endpoint.url),
        attempt: claim.attempt,
        status: record.responseStatus ?? undefined,
        error: record.error ?? undefined,
        durationMs: record.durationMs,
        state: kept ? outcome.state : 'superseded',
      },
      'webhook attempt',
    );
  }

  /** One signed POST to the endpoint; never throws for the target's failures. `refused`: the guard refused the target. */
  private async post({ endpoint, event }: ClaimedDelivery): Promise<AttemptRecord & { refused?: true }> {
    const now = this.now();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const { body, headers } = this.signed(endpoint, event, now);
      const target = await vetTarget(endpoint.url, {
        allowPrivate: this.options.allowPrivateTargets,
        resolve: this.options.resolve,
        dnsTimeoutMs: this.timeoutMs,
      });
      const { status, durationMs, excerpt } = await this.send({ target, body, headers, timeoutMs: this.timeoutMs });
      return { responseStatus: status, error: null, durationMs, responseExcerpt: excerpt ?? null };
    } catch (error) {
      if (error instanceof DeliveryError) return { responseStatus: null, error: error.reason, durationMs: elapsed(), responseExcerpt: null };
      if (error instanceof UnsafeTargetError) return { responseStatus: null, error: `endpoint URL ${error.message}`, durationMs: elapsed(), responseExcerpt: null, refused: true };
      if (error instanceof AcpEventError) return { responseStatus: null, error: error.message, durationMs: elapsed(), responseExcerpt: null };
      this.options.logger?.error({ err: error, eventId: event.id }, 'webhook attempt failed unexpectedly');
      return { responseStatus: null, error: 'internal error', durationMs: elapsed(), responseExcerpt: null };
    }
  }

  /** The bytes and headers of one attempt, in the endpoint's protocol (ours, or ACP's order webhooks). */
  private signed(endpoint: EndpointRow, event: WebhookEvent, now: Date): { body: string; headers: Record<string, string> } {
    const format = this.options.formats?.[endpoint.protocol];
    if (format) return format(endpoint, event, now);
    if (endpoint.protocol === 'ucp') throw new DeliveryError('this process sends no UCP webhooks (no UCP format configured)');
    if (endpoint.protocol === 'acp') {
      const body = serializeAcpEvent(event, endpoint.merchantId, this.options.permalinks ?? {});
      return { body, headers: acpHeaders(body, endpoint.secret, event, now) };
    }
    const body = serializeEvent(event);
    return { body, headers: { 'X-Webhook-Signature': sign(body, signingSecrets(endpoint, now), { timestamp: Math.floor(now.getTime() / 1000) }) } };
  }

  private outcomeOf(attempt: number, status: number | null): DeliveryOutcome {
    if (status !== null && status >= 200 && status < 300) return { state: 'succeeded' };
    if (status === 410) return { state: 'abandoned', disableEndpoint: true };
    const delay = nextRetryDelay(attempt, this.options.schedule ?? DEFAULT_RETRY_SCHEDULE, this.options.random);
    return delay === null ? { state: 'failed' } : { state: 'pending', nextAttemptAt: new Date(this.now().getTime() + delay) };
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** The gateway process's worker over its database, started; `await worker.stop()` on shutdown. */
export function startDeliveryWorker(
  db: Database,
  config: Pick<Config, 'webhookAllowPrivateTargets'> & Partial<Pick<Config, 'orderUrlTemplate' | 'storefrontUrl'>>,
  logger: Logger,
  options: Partial<DeliveryWorkerOptions> = {},
): DeliveryWorker {
  const worker = new DeliveryWorker({
    store: new WebhookStore(db),
    allowPrivateTargets: config.webhookAllowPrivateTargets,
    permalinks: { orderUrlTemplate: config.orderUrlTemplate, storefrontUrl: config.storefrontUrl },
    logger,
    ...options,
  });
  worker.start();
  return worker;
}
