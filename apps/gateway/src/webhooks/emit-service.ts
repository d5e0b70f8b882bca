/**
 * POST /webhooks/emit without Express: build the event, sign it, and — with
 * a target — vet the target and POST it once. Domain errors only: 400 for a
 * refused request or target, 404 for a session the merchant does not have,
 * 502 when the target gave no answer.
 */
import { sign } from '@commerce-gateway/webhooks';
import type { Logger } from 'pino';
import type { GatewayEnv } from '../config/config.js';
import type { CheckoutSession, WebhookEmitRequest, WebhookEmitResult, WebhookEvent, WebhookEventType } from '../contract/types.js';
import { InvalidRequestError, UpstreamError } from '../kernel/errors.js';
import { DeliveryError, UnsafeTargetError } from '../kernel/outbound/delivery-errors.js';
import { DEMO_WEBHOOK_SECRET } from './demo-secret.js';
import { buildEvent, serializeEvent } from './event.js';
import { DELIVERY_TIMEOUT_MS, postWebhook, type SendWebhook } from '../kernel/outbound/http-delivery.js';
import { parseTargetUrl, vetTarget, type Resolver } from '../kernel/outbound/safe-target.js';

/** Reads a merchant's checkout session; throws NotFoundError for an unknown or foreign id. */
export interface SessionReader {
  get(merchantId: string, sessionId: string): Promise<CheckoutSession>;
}

/** What to emit and what came of it: the contract's own shapes (POST /webhooks/emit). */
export type EmitRequest = WebhookEmitRequest;
export type EmitResult = WebhookEmitResult;

export interface EmitOptions {
  sessions: SessionReader;
  env: GatewayEnv;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS. */
  allowPrivateTargets: boolean;
  logger?: Logger | undefined;
  /** Injectable for tests. */
  timeoutMs?: number;
  resolve?: Resolver;
  send?: SendWebhook;
  now?: () => Date;
}

/** A refused target is the caller's mistake: 400 naming target_url. */
function asInvalidRequest(error: unknown): unknown {
  return error instanceof UnsafeTargetError ? new InvalidRequestError(`target_url ${error.message}`, 'target_url') : error;
}

export class EmitService {
  private readonly send: SendWebhook;
  private readonly now: () => Date;
  private readonly timeoutMs: number;

  constructor(private readonly options: EmitOptions) {
    this.send = options.send ?? postWebhook;
    this.now = options.now ?? (() => new Date());
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  }

  async emit(merchantId: string, request: EmitRequest): Promise<EmitResult> {
    const secret = this.secretFor(request);
    if (request.target_url !== undefined) {
      try {
        parseTargetUrl(request.target_url);
      } catch (error) {
        throw asInvalidRequest(error);
      }
    }
    const object = await this.objectFor(merchantId, request);
    const now = this.now();
    const payload = buildEvent(request.event_type, object, now);
    const body = serializeEvent(payload);
    const signature = sign(body, secret, { timestamp: Math.floor(now.getTime() / 1000) });
    if (request.target_url === undefined) return { delivered: null, signature, payload };
    return { delivered: await this.deliver(request.target_url, body, signature, payload.id), signature, payload };
  }

  private secretFor(request: EmitRequest): string {
    if (request.signature_secret !== undefined) return request.signature_secret;
    if (this.options.env === 'production') {
      throw new InvalidRequestError(
        'signature_secret is required in production: the built-in demo secret is public and would prove nothing',
        'signature_secret',
      );
    }
    return DEMO_WEBHOOK_SECRET;
  }

  /** data.object: the session, the custom payload, or both (the session's own fields win), else {}. */
  private async objectFor(merchantId: string, request: EmitRequest): Promise<Record<string, unknown>> {
    const custom = request.payload ?? {};
    if (request.checkout_session_id === undefined) return { ...custom };
    const session = await this.options.sessions.get(merchantId, request.checkout_session_id);
    return { ...custom, ...(session as unknown as Record<string, unknown>) };
  }

  private async deliver(targetUrl: string, body: string, signature: string, eventId: string): Promise<number> {
    const host = new URL(targetUrl).host;
    const started = performance.now();
    try {
      const target = await vetTarget(targetUrl, {
        allowPrivate: this.options.allowPrivateTargets,
        resolve: this.options.resolve,
        dnsTimeoutMs: this.timeoutMs,
      }).catch((error: unknown) => {
        throw asInvalidRequest(error);
      });
      const headers = { 'X-Webhook-Signature': signature };
      const { status, durationMs } = await this.send({ target, body, headers, timeoutMs: this.timeoutMs });
      this.options.logger?.info({ eventId, host, status, durationMs }, 'webhook emitted');
      return status;
    } catch (error) {
      if (!(error instanceof DeliveryError)) throw error;
      const durationMs = Math.round(performance.now() - started);
      this.options.logger?.info({ eventId, host, reason: error.reason, durationMs }, 'webhook emit got no answer');
      throw new UpstreamError(`Webhook delivery to ${host} failed: ${error.reason}`);
    }
  }
}
