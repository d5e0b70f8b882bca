/**
 * Reconciliation: our payments of a period (per merchant or all) compared with the PSP's objects
 * (PaymentProvider.retrieve), listing the drift (drift.ts) and, when asked, repairing it through
 * the payment operations (PaymentRepairs: a capture, a cancel, a refund, each recorded before the
 * PSP is asked, as every movement of money) or by recording a refund made at the PSP. Knows
 * nothing of HTTP or the CLI: `gateway payments reconcile` and the admin API both call it.
 */
import type { PaymentProvider, PaymentState } from '../../payments/payment-provider.js';
import { driftOf, type Drift, type RepairAction } from './drift.js';
import type { ReconcileScope, ReconciledPayment, ReconciliationStore } from './reconciliation-store.js';

/** Moves or records what repairs a drift; each answers what it did, and throws when it could not. */
export type PaymentRepairs = Record<RepairAction, (drift: Drift) => Promise<string>>;

export interface ReconcileRequest extends ReconcileScope {
  repair: boolean;
}

export interface RepairedDrift extends Drift {
  /** With `repair`: what the repair did, or why it could not (nothing moved then). */
  repaired?: { done: boolean; detail: string };
}

export interface ReconcileReport {
  since: Date;
  merchantId: string | null;
  /** Payments compared with the PSP. */
  checked: number;
  /** Payments the PSP could not be asked about (unreachable), or a provider that keeps no payments (the test provider). */
  unchecked: { sessionId: string; reference: string; reason: string }[];
  drift: RepairedDrift[];
}

export interface ReconciliationOptions {
  now?: () => Date;
  /** Payments asked about at once (the PSP's rate limit: Stripe allows 100 reads a second in live mode). */
  concurrency?: number;
  openSessionGraceMs?: number;
}

export class ReconciliationService {
  constructor(
    private readonly store: Pick<ReconciliationStore, 'payments'>,
    private readonly provider: Pick<PaymentProvider, 'name' | 'retrieve'>,
    private readonly repairs: PaymentRepairs | null,
    private readonly options: ReconciliationOptions = {},
  ) {}

  async reconcile(request: ReconcileRequest): Promise<ReconcileReport> {
    const now = (this.options.now ?? (() => new Date()))();
    const payments = await this.store.payments(request);
    const report: ReconcileReport = { since: request.since, merchantId: request.merchantId ?? null, checked: 0, unchecked: [], drift: [] };
    const views = await this.retrieveAll(payments);
    for (const [index, payment] of payments.entries()) {
      const view = views[index]!;
      if ('unchecked' in view) {
        report.unchecked.push({ sessionId: payment.sessionId, reference: payment.reference, reason: view.unchecked });
        continue;
      }
      report.checked++;
      const drift = driftOf(payment, view.state, { now, ...(this.options.openSessionGraceMs === undefined ? {} : { openSessionGraceMs: this.options.openSessionGraceMs }) });
      if (drift) report.drift.push(request.repair && drift.repair ? { ...drift, repaired: await this.repair(drift) } : drift);
    }
    return report;
  }

  private async repair(drift: Drift): Promise<{ done: boolean; detail: string }> {
    if (!this.repairs) return { done: false, detail: 'repairs need the payment operations, which this gateway was built without' };
    try {
      return { done: true, detail: await this.repairs[drift.repair!.action](drift) };
    } catch (error) {
      return { done: false, detail: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The PSP's view of each payment, a few at a time, in order. */
  private async retrieveAll(payments: readonly ReconciledPayment[]): Promise<({ state: PaymentState | null } | { unchecked: string })[]> {
    const results: ({ state: PaymentState | null } | { unchecked: string })[] = new Array(payments.length);
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < payments.length; index = next++) {
        const payment = payments[index]!;
        try {
          const state = await this.provider.retrieve(payment.merchantId, payment.reference);
          results[index] = state === null && this.provider.name === 'test' ? { unchecked: 'the test provider keeps no payments to compare with' } : { state };
        } catch (error) {
          // Unreachable, or the merchant has no account there: listed, and the rest still compared.
          results[index] = { unchecked: `${this.provider.name} could not be asked: ${error instanceof Error ? error.message : String(error)}` };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.options.concurrency ?? 4, payments.length)) }, worker));
    return results;
  }
}
