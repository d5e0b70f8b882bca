/**
 * The payment port over Stripe's PaymentIntents, for a platform taking payments for many merchants.
 *
 * Charge type: direct charges on each merchant's connected account (every call carries the
 * `Stripe-Account` header through the client's `stripeAccount` option). Stripe recommends direct
 * charges for connected accounts with the full Dashboard (Standard accounts), where the merchant is
 * the merchant of record: the payment, its fees, refunds and disputes are the merchant's, shown in
 * the merchant's own Dashboard; the platform holds no funds (docs.stripe.com/connect/direct-charges).
 * See docs/payments.md.
 *
 * Every authorization is manual capture: the money is held at authorization and captured only
 * after the order is committed (the payment operations worker), or released by cancel.
 */
import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { InvalidStateError } from '../../kernel/errors.js';
import type { MoveOutcome, OpenedPayment, PaymentHandlerDeclaration, PaymentMove, PaymentOutcome, PaymentProvider, PaymentRequest, PaymentState, PaymentSubject } from '../payment-provider.js';
import { declineReason, isCardError, isInvalidRequest, StripeAccountMissingError, stripeMessage, unreachableOrMisconfigured } from './stripe-errors.js';
import { stripeHandler } from './stripe-handler.js';
import { authenticationMetadata, judgeIntent, paymentState } from './stripe-intent-outcome.js';
import { agentPaymentMethod } from './stripe-agent-token.js';
import { stripeRefundReason } from './stripe-refund-reason.js';

/** A merchant's connected account (acct_…), or null when it has none (merchants.stripe_account_id, cached). */
export type StripeAccountLookup = (merchantId: string) => Promise<string | null>;

export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly interventions = ['3ds'] as const;

  constructor(
    private readonly stripe: Stripe,
    private readonly accounts: StripeAccountLookup,
    /** `sandbox` with a test-mode key (sk_test_…), `production` with a live one. */
    private readonly environment: 'sandbox' | 'production',
  ) {}

  async handlers(merchantId: string): Promise<PaymentHandlerDeclaration[]> {
    const account = await this.accounts(merchantId);
    return account ? [stripeHandler(account, this.environment)] : [];
  }

  async openPayment(subject: PaymentSubject): Promise<OpenedPayment> {
    const stripeAccount = await this.account(subject.merchantId);
    const intent = await this.call('open a payment', () =>
      this.stripe.paymentIntents.create(
        {
          amount: Number(subject.amount),
          currency: subject.currency.toLowerCase(),
          capture_method: 'manual',
          automatic_payment_methods: { enabled: true },
          metadata: { merchant_id: subject.merchantId, session_id: subject.sessionId },
        },
        { stripeAccount, idempotencyKey: subject.idempotencyKey },
      ),
    );
    return { reference: intent.id, clientSecret: intent.client_secret ?? '' };
  }

  async updatePayment(merchantId: string, reference: string, amount: bigint, currency: string): Promise<void> {
    const stripeAccount = await this.account(merchantId);
    try {
      await this.call('update a payment', () => this.stripe.paymentIntents.update(reference, { amount: Number(amount) }, { stripeAccount }));
    } catch (error) {
      if (!isInvalidRequest(error)) throw error;
      throw new InvalidStateError(`The payment ${reference} cannot be set to ${amount} ${currency.toUpperCase()}: ${stripeMessage(error)}`);
    }
  }

  async authorize(request: PaymentRequest): Promise<PaymentOutcome> {
    const stripeAccount = await this.account(request.merchantId);
    const expected = { amount: request.amount, currency: request.currency, sessionId: request.sessionId };
    const judge = (intent: Stripe.PaymentIntent) => judgeIntent(intent, expected, this.metadata(stripeAccount, request.merchantId, intent));
    // Our API (the buyer confirmed the opened payment with Stripe.js), or an agent back from 3-D Secure: look at the intent.
    const look = (reference: string) => this.intent(reference, stripeAccount, 'check the payment', ['payment_method']);
    if (request.reference) return judge(await look(request.reference));
    if (!request.instruction) {
      return { kind: 'declined', reason: 'No payment to check: the session has no opened payment (client_secret) and no payment instrument was given' };
    }
    const method = agentPaymentMethod(request.instruction.instrument.credential.token);
    if ('refused' in method) return { kind: 'declined', reason: method.refused };
    // One PaymentIntent per session, token and amount: asked again (a retry after a crash, or the agent
    // back from 3-D Secure with the same token), Stripe answers with the same intent, looked at anew.
    const key = `authorize:${request.sessionId}:${fingerprint(request.instruction.handlerId, request.instruction.instrument.credential.token, request.amount, request.currency)}`;
    let intent: Stripe.Response<Stripe.PaymentIntent>;
    try {
      intent = await this.call('authorize the payment', () =>
        this.stripe.paymentIntents.create(
          {
            amount: Number(request.amount),
            currency: request.currency.toLowerCase(),
            capture_method: 'manual',
            confirm: true,
            // The agent's token is confirmed server-side: no redirect-based method can be completed here.
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            metadata: { merchant_id: request.merchantId, session_id: request.sessionId, handler_id: request.instruction!.handlerId },
            expand: ['payment_method'],
            ...method.params,
          } as Stripe.PaymentIntentCreateParams,
          { stripeAccount, idempotencyKey: key },
        ),
      );
    } catch (error) {
      if (!isCardError(error) && !isInvalidRequest(error)) throw error;
      const failed = (error as { payment_intent?: Stripe.PaymentIntent }).payment_intent;
      if (request.instruction.authentication && failed?.id) return judge(await look(failed.id));
      return { kind: 'declined', reason: isCardError(error) ? declineReason(error) : `Stripe refused the payment: ${stripeMessage(error)}`, ...(failed?.id ? { reference: failed.id } : {}) };
    }
    const replayed = intent.lastResponse?.headers?.['idempotent-replayed'] === 'true';
    if (replayed || request.instruction.authentication) return judge(await look(intent.id));
    return judge(intent);
  }

  async capture(move: PaymentMove): Promise<MoveOutcome> {
    return this.move(move, 'capture the payment', 'succeeded', (stripeAccount) =>
      this.stripe.paymentIntents.capture(move.reference, { amount_to_capture: Number(move.amount) }, { stripeAccount, idempotencyKey: move.idempotencyKey }),
    );
  }

  async cancel(move: PaymentMove): Promise<MoveOutcome> {
    return this.move(move, 'release the payment', 'canceled', (stripeAccount) =>
      this.stripe.paymentIntents.cancel(move.reference, {}, { stripeAccount, idempotencyKey: move.idempotencyKey }),
    );
  }

  async refund(move: PaymentMove): Promise<MoveOutcome> {
    const stripeAccount = await this.account(move.merchantId);
    try {
      const refund = await this.call('pay money back', () =>
        this.stripe.refunds.create(
          {
            payment_intent: move.reference,
            amount: Number(move.amount),
            ...stripeRefundReason(move.reason),
            metadata: { merchant_id: move.merchantId, ...(move.reason ? { reason: move.reason } : {}) },
          },
          { stripeAccount, idempotencyKey: move.idempotencyKey },
        ),
      );
      if (refund.status === 'failed' || refund.status === 'canceled') return { kind: 'failed', reason: `Stripe's refund ${refund.id} ${refund.status} (${refund.failure_reason ?? 'no reason given'})` };
      return { kind: 'succeeded', reference: refund.id };
    } catch (error) {
      if (isInvalidRequest(error) || isCardError(error)) return { kind: 'failed', reason: `Stripe refused the refund: ${stripeMessage(error)}` };
      throw error;
    }
  }

  async retrieve(merchantId: string, reference: string): Promise<PaymentState | null> {
    const stripeAccount = await this.account(merchantId);
    try {
      return paymentState(await this.intent(reference, stripeAccount, 'look at the payment', ['latest_charge']));
    } catch (error) {
      if (isInvalidRequest(error) && error.code === 'resource_missing') return null;
      throw error;
    }
  }

  /** Capture or cancel: a refusal because the intent is already where the move takes it (an earlier try whose answer was lost) is success. */
  private async move(move: PaymentMove, what: string, goal: Stripe.PaymentIntent.Status, send: (account: string) => Promise<Stripe.PaymentIntent>): Promise<MoveOutcome> {
    const stripeAccount = await this.account(move.merchantId);
    try {
      const intent = await this.call(what, () => send(stripeAccount));
      return { kind: 'succeeded', reference: intent.id };
    } catch (error) {
      if (!isInvalidRequest(error) && !isCardError(error)) throw error;
      if (error.code === 'payment_intent_unexpected_state') {
        const now = await this.intent(move.reference, stripeAccount, what);
        if (now.status === goal) return { kind: 'succeeded', reference: now.id };
        return { kind: 'failed', reason: `Stripe could not ${what}: the payment ${now.id} is ${now.status}${now.cancellation_reason ? ` (${now.cancellation_reason})` : ''}` };
      }
      return { kind: 'failed', reason: `Stripe could not ${what}: ${stripeMessage(error)}` };
    }
  }

  private intent(reference: string, stripeAccount: string, what: string, expand?: string[]): Promise<Stripe.PaymentIntent> {
    return this.call(what, () => this.stripe.paymentIntents.retrieve(reference, expand ? { expand } : {}, { stripeAccount }));
  }

  private async account(merchantId: string): Promise<string> {
    const account = await this.accounts(merchantId);
    if (!account) throw new StripeAccountMissingError(merchantId);
    return account;
  }

  private metadata(account: string, merchantId: string, intent: Stripe.PaymentIntent) {
    const method = typeof intent.payment_method === 'object' ? intent.payment_method : undefined;
    return authenticationMetadata(account, merchantId, method?.card?.brand);
  }

  /** Runs a Stripe call; transient failures and refused credentials become the port's errors, card and request errors pass on. */
  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw unreachableOrMisconfigured(error, what) ?? error;
    }
  }
}

function fingerprint(...parts: unknown[]): string {
  return createHash('sha256').update(parts.map(String).join('\u0000')).digest('base64url').slice(0, 32);
}
