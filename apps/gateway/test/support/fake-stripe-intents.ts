/**
 * The double's memory of PaymentIntents and refunds, and how Stripe moves them (docs.stripe.com/
 * payments/paymentintents/lifecycle): confirm → requires_capture (manual capture), requires_action
 * (3-D Secure) or back to requires_payment_method with last_payment_error (a decline, 402);
 * capture → succeeded; cancel → canceled; refunds up to what was captured. A move from a status
 * Stripe refuses answers 400 `payment_intent_unexpected_state`, as Stripe does.
 */
import { randomBytes } from 'node:crypto';
import { cardBehaviour } from './fake-stripe-cards.js';

type Json = Record<string, unknown>;
export interface Answer {
  status: number;
  body: Json;
}

export interface FakeIntent {
  id: string;
  account: string | undefined;
  amount: number;
  currency: string;
  status: 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'requires_capture' | 'succeeded' | 'canceled';
  capture_method: string;
  metadata: Record<string, string>;
  payment_method: string | null;
  amount_capturable: number;
  amount_received: number;
  amount_refunded: number;
  client_secret: string;
  next_action: Json | null;
  last_payment_error: Json | null;
  cancellation_reason: string | null;
  canceled_at: number | null;
  created: number;
  brand: string;
  /** The charge a confirmation made (latest_charge), once there is one. */
  charge: string | null;
  /** A scripted capture failure: the authorization lapsed (Stripe cancels it, the capture is refused). */
  captureFails: boolean;
}

export interface FakeRefund {
  id: string;
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  reason: string | null;
  metadata: Record<string, string>;
  status: 'succeeded';
  created: number;
}

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);

export function stripeError(status: number, error: Json): Answer {
  return { status, body: { error: { doc_url: `https://stripe.com/docs/error-codes/${String(error.code ?? '')}`, ...error } } };
}

export class FakeIntents {
  readonly intents = new Map<string, FakeIntent>();
  readonly refunds = new Map<string, FakeRefund>();
  /** Shared payment tokens granted to the platform (spt_… → the payment method behind it), as Stripe's test helper does. */
  readonly sharedTokens = new Map<string, string>();

  create(params: Json, account: string | undefined): FakeIntent {
    const id = newId('pi');
    const intent: FakeIntent = {
      id,
      account,
      amount: Number(params.amount),
      currency: String(params.currency),
      status: 'requires_payment_method',
      capture_method: String(params.capture_method ?? 'automatic'),
      metadata: (params.metadata as Record<string, string>) ?? {},
      payment_method: null,
      amount_capturable: 0,
      amount_received: 0,
      amount_refunded: 0,
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      next_action: null,
      last_payment_error: null,
      cancellation_reason: null,
      canceled_at: null,
      created: now(),
      brand: 'visa',
      charge: null,
      captureFails: false,
    };
    this.intents.set(id, intent);
    return intent;
  }

  update(intent: FakeIntent, params: Json): Answer | undefined {
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      return unexpectedState(intent, 'updated');
    }
    if (params.amount !== undefined) intent.amount = Number(params.amount);
    if (params.metadata) intent.metadata = { ...intent.metadata, ...(params.metadata as Record<string, string>) };
    return undefined;
  }

  /** Confirms with a payment method (`pm_…`) or a shared payment token; undefined when it went through (or needs an action). */
  confirm(intent: FakeIntent, paymentMethod: string | undefined, returnUrl?: string): Answer | undefined {
    if (!['requires_payment_method', 'requires_confirmation'].includes(intent.status)) return unexpectedState(intent, 'confirmed');
    const method = paymentMethod?.startsWith('spt_') ? this.sharedTokens.get(paymentMethod) : paymentMethod;
    if (paymentMethod?.startsWith('spt_') && !method) {
      return stripeError(400, { type: 'invalid_request_error', code: 'resource_missing', message: `No such shared payment granted token: '${paymentMethod}'`, param: 'payment_method_data[shared_payment_granted_token]' });
    }
    if (!method) return stripeError(400, { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'You cannot confirm this PaymentIntent because it\'s missing a payment method.' });
    const behaviour = cardBehaviour(method);
    if (!behaviour) return stripeError(400, { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${method}'`, param: 'payment_method' });
    intent.payment_method = method.startsWith('pm_card_') ? newId('pm') : method;
    intent.brand = behaviour.brand;
    intent.last_payment_error = null;
    if (behaviour.kind === 'decline') {
      intent.status = 'requires_payment_method';
      intent.charge = newId('ch');
      intent.last_payment_error = {
        type: 'card_error',
        code: behaviour.code,
        ...(behaviour.declineCode ? { decline_code: behaviour.declineCode } : {}),
        message: behaviour.message,
        charge: intent.charge,
      };
      return stripeError(402, { ...intent.last_payment_error, payment_intent: this.view(intent) });
    }
    if (behaviour.kind === 'authenticate') {
      intent.status = 'requires_action';
      intent.next_action = returnUrl
        ? { type: 'redirect_to_url', redirect_to_url: { url: `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${intent.id}`, return_url: returnUrl } }
        : { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `https://hooks.stripe.com/redirect/authenticate/${intent.id}` } };
      return undefined;
    }
    this.authorized(intent);
    return undefined;
  }

  /** The buyer finished (or failed) 3-D Secure: what Stripe.js reports back to Stripe. */
  authenticate(intent: FakeIntent, succeeded: boolean): void {
    if (intent.status !== 'requires_action') throw new Error(`${intent.id} is ${intent.status}, not requires_action`);
    intent.next_action = null;
    if (succeeded) return this.authorized(intent);
    intent.status = 'requires_payment_method';
    intent.last_payment_error = {
      type: 'invalid_request_error',
      code: 'payment_intent_authentication_failure',
      message: 'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
    };
  }

  capture(intent: FakeIntent, params: Json): Answer | undefined {
    if (intent.captureFails && intent.status === 'requires_capture') {
      intent.status = 'canceled';
      intent.cancellation_reason = 'automatic';
      intent.canceled_at = now();
      intent.amount_capturable = 0;
    }
    if (intent.status !== 'requires_capture') return unexpectedState(intent, 'captured');
    const amount = params.amount_to_capture === undefined ? intent.amount_capturable : Number(params.amount_to_capture);
    if (amount > intent.amount_capturable) {
      return stripeError(400, { type: 'invalid_request_error', code: 'amount_too_large', param: 'amount_to_capture', message: 'The amount to capture is greater than the amount capturable.' });
    }
    intent.status = 'succeeded';
    intent.amount_received = amount;
    intent.amount_capturable = 0;
    return undefined;
  }

  cancel(intent: FakeIntent, params: Json): Answer | undefined {
    if (!['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      return unexpectedState(intent, 'canceled');
    }
    intent.status = 'canceled';
    intent.cancellation_reason = (params.cancellation_reason as string | undefined) ?? null;
    intent.canceled_at = now();
    intent.amount_capturable = 0;
    return undefined;
  }

  refund(params: Json): Answer | FakeRefund {
    const intent = this.intents.get(String(params.payment_intent));
    if (!intent) return missing('payment_intent', String(params.payment_intent));
    if (intent.status !== 'succeeded') {
      return stripeError(400, { type: 'invalid_request_error', code: 'charge_not_captured', message: `PaymentIntent ${intent.id} has no captured charge to refund (status ${intent.status}).` });
    }
    const left = intent.amount_received - intent.amount_refunded;
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (left === 0) return stripeError(400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${intent.charge} has already been refunded.` });
    if (amount > left) {
      return stripeError(400, { type: 'invalid_request_error', code: 'amount_too_large', param: 'amount', message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})` });
    }
    intent.amount_refunded += amount;
    const refund: FakeRefund = {
      id: newId('re'),
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: intent.charge,
      reason: (params.reason as string | undefined) ?? null,
      metadata: (params.metadata as Record<string, string>) ?? {},
      status: 'succeeded',
      created: now(),
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  /** The intent as Stripe's API shows it (the fields the double keeps; the fixture gives the rest). */
  view(intent: FakeIntent): Json {
    const { account: _account, brand: _brand, charge, captureFails: _captureFails, amount_refunded: _refunded, ...fields } = intent;
    return { ...fields, object: 'payment_intent', latest_charge: charge ? this.chargeView(intent) : null };
  }

  /** The intent's latest charge (what `expand: ['latest_charge']` shows). */
  chargeView(intent: FakeIntent): Json {
    return {
      id: intent.charge,
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount_received,
      amount_refunded: intent.amount_refunded,
      captured: intent.amount_received > 0,
      refunded: intent.amount_received > 0 && intent.amount_refunded === intent.amount_received,
      currency: intent.currency,
      payment_intent: intent.id,
      status: intent.last_payment_error ? 'failed' : 'succeeded',
      payment_method_details: { type: 'card', card: { brand: intent.brand } },
    };
  }

  private authorized(intent: FakeIntent): void {
    intent.charge = newId('ch');
    if (intent.capture_method === 'automatic') {
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
    } else {
      intent.status = 'requires_capture';
      intent.amount_capturable = intent.amount;
    }
  }
}

export function missing(param: string, id: string): Answer {
  return stripeError(404, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${param}: '${id}'` });
}

function unexpectedState(intent: FakeIntent, verb: string): Answer {
  return stripeError(400, {
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message: `This PaymentIntent could not be ${verb} because it has a status of ${intent.status}.`,
  });
}
