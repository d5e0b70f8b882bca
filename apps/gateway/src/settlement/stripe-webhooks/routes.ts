/**
 * `POST /payments/stripe/webhooks` — where Stripe sends its events (PAYMENT_PROVIDER=stripe only).
 * Outside the API's edge: no API key (Stripe authenticates by signature), and mounted before any
 * JSON parsing, because the signature covers the exact bytes. The raw body is verified with the
 * official client (`stripe.webhooks.constructEvent`: `Stripe-Signature`, HMAC-SHA256 with the
 * endpoint's signing secret STRIPE_WEBHOOK_SECRET, `tolerance` seconds) — a missing, wrong or stale
 * signature is 400 `invalid_request` in our error shape, nothing read or changed — then applied
 * by PaymentEventService. Every event Stripe may stop retrying is answered 200 `{"received": true}`:
 * handled, already handled, or not about one of our orders (logged). A database that is down is 503
 * (the edge's error handler), and Stripe retries for up to three days.
 *
 *   compose([…, stripeWebhooks({ secret: config.stripeWebhookSecret, events, logger }), …, serve])
 */
import express, { type Request, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import { InvalidRequestError, InvalidStateError } from '../../kernel/errors.js';
import type { PaymentEventService } from '../provider-events/payment-event-service.js';
import { paymentEventOf, type StripeEventLike } from './stripe-event.js';

export const STRIPE_WEBHOOK_PATH = '/payments/stripe/webhooks';

export interface StripeWebhookOptions {
  /** STRIPE_WEBHOOK_SECRET: the endpoint's signing secret (whsec_…). */
  secret: string;
  /** Seconds a signature stays valid (default Stripe's, 300). */
  toleranceSeconds?: number;
  events: Pick<PaymentEventService, 'apply'>;
  logger: Logger;
  /**
   * The mode of the events this gateway takes: live in production (its key is live), test
   * elsewhere. Stripe sends a live Connect endpoint the test-mode events of accounts connected in
   * live mode too, signed alike; they are answered 200 and change nothing.
   */
  livemode: boolean;
}

/** Stripe's refusal as a message that says how to fix it. */
function signatureProblem(req: Request, error: unknown): InvalidRequestError {
  if (!req.get('stripe-signature')) return new InvalidRequestError('No Stripe-Signature header: only Stripe may call this endpoint', 'Stripe-Signature');
  const detail = error instanceof Error ? error.message : String(error);
  const stale = /tolerance/i.test(detail);
  return new InvalidRequestError(
    stale
      ? 'The Stripe-Signature timestamp is outside the tolerance (a replayed or delayed event, or a clock off)'
      : 'The Stripe-Signature does not match the body: is STRIPE_WEBHOOK_SECRET the signing secret of this endpoint (test and live secrets differ)?',
    'Stripe-Signature',
  );
}

export function stripeWebhooks(options: StripeWebhookOptions): RequestHandler {
  const { secret, events } = options;
  const tolerance = options.toleranceSeconds ?? Stripe.webhooks.DEFAULT_TOLERANCE;
  const logger = options.logger.child({ component: 'stripe-webhooks' });
  // The exact bytes, whatever the Content-Type Stripe sends (application/json; charset=utf-8).
  const raw = express.raw({ type: () => true, limit: '1mb' });
  const handle: RequestHandler = async (req, res) => {
    const body: unknown = req.body;
    const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    let event: StripeEventLike;
    try {
      event = Stripe.webhooks.constructEvent(bytes, req.get('stripe-signature') ?? '', secret, tolerance) as unknown as StripeEventLike;
    } catch (error) {
      throw signatureProblem(req, error);
    }
    const context = { stripeEvent: event.id, type: event.type, account: event.account ?? null, requestId: req.ctx?.requestId };
    const payment = event.livemode === options.livemode ? paymentEventOf(event) : null;
    if (event.livemode !== options.livemode) logger.info({ ...context, livemode: event.livemode }, `Stripe ${event.livemode ? 'live' : 'test'}-mode event on a ${options.livemode ? 'live' : 'test'}-mode gateway: ignored`);
    else if (!payment) logger.info(context, 'Stripe event of a type the gateway does not handle: ignored');
    else {
      const outcome = await events.apply(payment);
      if (outcome.result === 'ignored') logger.warn({ ...context, reason: outcome.reason }, 'Stripe event not applied');
      else if (outcome.result === 'duplicate') logger.info(context, 'Stripe event already handled');
      else logger.info({ ...context, orderId: outcome.orderId, emitted: outcome.emitted }, 'Stripe event applied');
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({ received: true });
  };
  return (req, res, next) => {
    if (req.path !== STRIPE_WEBHOOK_PATH) return next();
    if (req.method !== 'POST') throw new InvalidStateError(`${STRIPE_WEBHOOK_PATH} takes POST only (Stripe's webhook deliveries)`);
    raw(req, res, (error?: unknown) => {
      if (error) return next(error);
      Promise.resolve(handle(req, res, next)).catch(next);
    });
  };
}
