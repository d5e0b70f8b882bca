/**
 * Money moves outside every database transaction, never without a record (issue 36). Each call to
 * the PSP is preceded by its payment operation (payment-operation-store.ts) and followed by its
 * outcome; the same idempotency key goes with every attempt. A retryable failure
 * (PaymentUnreachableError) leaves the operation pending with a backoff; the PSP's final answers
 * (approved, declined, 3-D Secure, succeeded, failed) are final. The worker (payment-worker.ts) runs
 * what requests left pending, and resolves authorizations a crash left behind.
 *
 *   const authorized = await operations.authorize(subject, request, keyBase); // before the order's transaction
 *   … the transaction writes captureCtes(…) with the order …
 *   await operations.runQuietly(capture);                                      // after it committed
 */
import { createHash } from 'node:crypto';
import { ServiceUnavailableError } from '../../kernel/errors.js';
import { AuthenticationRequiredError, PaymentDeclinedError, PaymentUnreachableError } from '../payment-errors.js';
import type { AuthenticationMetadata, MoveOutcome, PaymentProvider } from '../payment-provider.js';
import { faultPoint } from './fault-injection.js';
import { cancelKey, captureKey, retryDelayMs, SETTLED, type AuthorizationRequest, type PaymentOperation } from './payment-operation.js';
import type { NewOperation, PaymentOperationStore, Recorded } from './payment-operation-store.js';
import type { SessionOrders } from './session-orders.js';

export interface PaymentOperationsOptions {
  /** How long a completion holds its authorization before a worker may resolve it (longer than a PSP call and a commit). */
  leaseMs?: number;
  /** The first retry's delay after a retryable failure (then doubling). */
  retryBaseMs?: number;
  now?: () => Date;
  /** Told when the PSP finally refused a refund recorded with an order (orders/ shows it to the merchant). */
  onRefundFailed?: (operation: PaymentOperation, reason: string) => Promise<void>;
}

/** What a completion is paying for. `amount` in minor units. */
export interface PaymentSubjectOf {
  merchantId: string;
  sessionId: string;
  amount: bigint;
  currency: string;
}

/** An approved authorization, held by the completion that asked for it until its order commits or it is released. */
export interface Authorized {
  operation: PaymentOperation;
  reference: string;
}

/** The PSP could not be reached at completion: nothing was ordered; the authorization, if any, is released by the worker. */
export class PaymentProviderUnreachableError extends ServiceUnavailableError {
  readonly reason = 'payment_provider_unreachable';
}

export class PaymentOperations {
  readonly leaseMs: number;
  private readonly now: () => Date;

  constructor(
    readonly store: PaymentOperationStore,
    readonly provider: PaymentProvider,
    /** The order each session became: orders' (order-store.ts), through the port. */
    private readonly orders: SessionOrders,
    private readonly options: PaymentOperationsOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.now = options.now ?? (() => new Date());
  }

  /** A short, stable idempotency key for what `parts` name (Stripe's keys are at most 255 characters; tokens stay out of them). */
  static key(sessionId: string, ...parts: string[]): string {
    return `auth_${sessionId}_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32)}`;
  }

  /**
   * Records the authorization, then asks the PSP (outside any transaction). Approved: the caller's
   * order transaction settles it (captureCtes) or the caller releases it. Declined or 3-D Secure:
   * recorded, and thrown (PaymentDeclinedError, AuthenticationRequiredError). Held by another
   * completion of the same session: waits for it, then answers as the session then is.
   */
  async authorize(subject: PaymentSubjectOf, request: AuthorizationRequest, keyBase: string): Promise<Authorized | 'settled'> {
    let key = keyBase;
    for (let round = 0; ; round++) {
      const now = this.now();
      const claim = await this.store.claimAuthorize(this.newAuthorization(subject, request, key, now), now);
      if ('existing' in claim) {
        const { existing } = claim;
        if (existing.nextAttemptAt.getTime() !== SETTLED.getTime()) {
          await this.waitWhileHeld(existing); // another completion of this session is paying: let it finish
          continue;
        }
        // Settled: ordered (the caller's lock answers so) or released — then a new authorization, under a new key.
        if (await this.orders.orderOfSession(subject.sessionId)) return 'settled';
        const released = await this.store.releasedAuthorizations(subject.sessionId);
        const next = `${keyBase}#${released}`;
        if (next === key || round > 5) return 'settled';
        key = next;
        continue;
      }
      const operation = claim.claimed;
      if (operation.state === 'succeeded' && operation.reference) return { operation, reference: operation.reference }; // approved before a crash
      return this.ask(operation, subject, request);
    }
  }

  /** Releases an authorization the order will not capture (its transaction failed), and runs the cancel now; the worker retries it. */
  async release(authorized: Authorized): Promise<void> {
    const cancel = await this.store.release(authorized.operation, { state: 'succeeded', reference: authorized.reference }, this.cancelOf(authorized.operation), this.now());
    if (cancel) await this.runQuietly(cancel);
  }

  /** The capture an order's transaction records with the order (captureCtes), leased to the request that runs it after the commit. */
  captureOf(authorized: Authorized, orderId: string): NewOperation {
    const move = this.moveOf(authorized.operation, 'capture', captureKey(authorized.operation.idempotencyKey));
    return { ...move, reference: authorized.reference, orderId, nextAttemptAt: this.leaseEnd() };
  }

  cancelOf(authorize: PaymentOperation): NewOperation {
    return { ...this.moveOf(authorize, 'cancel', cancelKey(authorize.idempotencyKey)), nextAttemptAt: this.leaseEnd() };
  }

  leaseEnd(): Date {
    return new Date(this.now().getTime() + this.leaseMs);
  }

  /** Runs a capture, cancel or refund: the PSP asked with the operation's key, the outcome recorded. */
  async run(operation: PaymentOperation): Promise<Recorded> {
    const move = {
      merchantId: operation.merchantId,
      reference: operation.reference ?? '',
      amount: operation.amount,
      currency: operation.currency,
      idempotencyKey: operation.idempotencyKey,
      ...(operation.request?.reason ? { reason: operation.request.reason } : {}),
    };
    let outcome: MoveOutcome;
    try {
      if (operation.kind === 'capture') outcome = await this.provider.capture(move);
      else if (operation.kind === 'cancel') outcome = await this.provider.cancel(move);
      else if (operation.kind === 'refund') outcome = await this.provider.refund(move);
      else throw new Error(`run() moves money; ${operation.kind} is asked with authorize()`);
    } catch (error) {
      return this.retryLater(operation, error);
    }
    if (operation.kind === 'capture') faultPoint('capture-called');
    const recorded: Recorded = outcome.kind === 'succeeded' ? { state: 'succeeded', reference: outcome.reference } : { state: 'failed', error: outcome.reason };
    const changed = await this.store.record(operation.id, recorded, this.now());
    if (changed && recorded.state === 'failed' && operation.kind === 'refund') await this.options.onRefundFailed?.(operation, recorded.error);
    return recorded;
  }

  /** `run`, for after a commit: a failure to record is left to the worker (the operation is still pending, its lease expires). */
  async runQuietly(operation: PaymentOperation): Promise<Recorded | null> {
    return this.run(operation).catch(() => null);
  }

  /**
   * An authorization whose lease expired unsettled (its completion crashed, or failed and crashed
   * before releasing it): captured when its session's order exists and nothing captures it, else
   * released — asking the PSP again with the same key first when its answer was never recorded.
   */
  async resolveOrphan(authorize: PaymentOperation): Promise<void> {
    let reference = authorize.reference;
    let known: Recorded | null = null;
    if (authorize.state === 'pending') {
      const subject = { merchantId: authorize.merchantId, sessionId: authorize.sessionId, amount: authorize.amount, currency: authorize.currency };
      const outcome = await this.askProvider(authorize, subject, authorize.request ?? {});
      if (outcome === 'unreachable') return; // still pending: tried again after the retry delay (retryLater)
      known = outcome;
      reference = 'reference' in outcome ? (outcome.reference ?? null) : null;
      if (outcome.state !== 'succeeded') {
        await this.store.release(authorize, outcome, this.cancelOf(authorize), this.now());
        return;
      }
    }
    const orderId = await this.orders.orderOfSession(authorize.sessionId);
    if (orderId && reference && !(await this.store.captureRecorded(authorize.sessionId))) {
      const capture = await this.store.settleWithCapture(authorize, reference, this.captureOf({ operation: authorize, reference }, orderId), this.now());
      if (capture) await this.runQuietly(capture);
      return;
    }
    const cancel = await this.store.release(authorize, known, this.cancelOf(authorize), this.now());
    if (cancel) await this.runQuietly(cancel);
  }

  private async ask(operation: PaymentOperation, subject: PaymentSubjectOf, request: AuthorizationRequest): Promise<Authorized> {
    faultPoint('authorize-recorded');
    const outcome = await this.askProvider(operation, subject, request);
    if (outcome === 'unreachable') throw new PaymentProviderUnreachableError('The payment provider could not be reached; nothing was ordered or charged. Retry the completion.');
    faultPoint('psp-authorized');
    if (outcome.state === 'succeeded') return { operation, reference: outcome.reference }; // recorded with the order (captureCtes), or by release()
    await this.store.record(operation.id, outcome, this.now());
    if (outcome.state === 'requires_action' && outcome.metadata) throw new AuthenticationRequiredError('The payment needs 3-D Secure authentication of the buyer', outcome.metadata);
    throw new PaymentDeclinedError(outcome.error, 'payment_data');
  }

  /** The PSP's answer to an authorization, or 'unreachable' (recorded: pending, retried later). Errors other than unreachable are recorded as failures and thrown. */
  private async askProvider(operation: PaymentOperation, subject: PaymentSubjectOf, request: AuthorizationRequest): Promise<Asked | 'unreachable'> {
    try {
      const outcome = await this.provider.authorize({ ...subject, ...request, idempotencyKey: operation.idempotencyKey });
      if (outcome.kind === 'approved') return { state: 'succeeded', reference: outcome.reference };
      if (outcome.kind === 'declined') return { state: 'failed', error: outcome.reason, reference: outcome.reference };
      return { state: 'requires_action', error: 'the buyer must authenticate (3-D Secure)', reference: outcome.reference, metadata: outcome.metadata };
    } catch (error) {
      if (error instanceof PaymentUnreachableError) {
        await this.retryLater(operation, error);
        return 'unreachable';
      }
      await this.store.record(operation.id, { state: 'failed', error: (error as Error).message }, this.now());
      throw error;
    }
  }

  private async retryLater(operation: PaymentOperation, error: unknown): Promise<Recorded> {
    const recorded: Recorded = {
      state: 'pending',
      error: error instanceof Error ? error.message : String(error),
      retryAt: new Date(this.now().getTime() + retryDelayMs(operation.attempts + 1, this.options.retryBaseMs)),
    };
    await this.store.record(operation.id, recorded, this.now());
    return recorded;
  }

  private async waitWhileHeld(held: PaymentOperation): Promise<void> {
    const until = Math.min(held.nextAttemptAt.getTime(), this.now().getTime() + this.leaseMs);
    let pause = 5;
    while (this.now().getTime() < until) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 200);
      const now = await this.store.byKey(held.idempotencyKey);
      if (!now || now.nextAttemptAt.getTime() !== held.nextAttemptAt.getTime() || now.state !== held.state) return;
    }
  }

  private newAuthorization(subject: PaymentSubjectOf, request: AuthorizationRequest, key: string, now: Date): NewOperation {
    return { ...subject, kind: 'authorize', provider: this.provider.name, idempotencyKey: key, request, reference: request.reference ?? null, nextAttemptAt: new Date(now.getTime() + this.leaseMs) };
  }

  private moveOf(authorize: PaymentOperation, kind: 'capture' | 'cancel', key: string): Omit<NewOperation, 'nextAttemptAt'> {
    const { merchantId, sessionId, amount, currency, provider, reference } = authorize;
    return { merchantId, sessionId, kind, provider, amount, currency, reference, idempotencyKey: key };
  }
}

/** The PSP's answer to an authorization, with what 3-D Secure needs. */
type Asked = Exclude<Recorded, { state: 'pending' }> & { metadata?: AuthenticationMetadata };
