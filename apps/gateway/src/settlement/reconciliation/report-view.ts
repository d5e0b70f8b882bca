/**
 * A reconciliation report as JSON (the CLI's `--json` and the admin API's ReconcileReport):
 * snake_case, amounts in major units of the payment's currency as everywhere in our contracts.
 */
import { toMajor } from '../../kernel/money/money.js';
import type { ReconcileReport, RepairedDrift } from './reconciliation-service.js';

export interface DriftView {
  kind: RepairedDrift['kind'];
  merchant_id: string;
  order_id: string | null;
  session_id: string;
  reference: string;
  currency: string;
  ours: { state: string; amount: number };
  psp: { state: string; amount: number };
  repair: { action: NonNullable<RepairedDrift['repair']>['action']; amount: number } | null;
  repaired: { done: boolean; detail: string } | null;
}

export interface ReconcileReportView {
  since: string;
  merchant_id: string | null;
  checked: number;
  unchecked: { session_id: string; reference: string; reason: string }[];
  drift: DriftView[];
}

export function driftView(drift: RepairedDrift): DriftView {
  const major = (minor: bigint) => toMajor(minor, drift.currency);
  return {
    kind: drift.kind,
    merchant_id: drift.merchantId,
    order_id: drift.orderId,
    session_id: drift.sessionId,
    reference: drift.reference,
    currency: drift.currency,
    ours: { state: drift.ours.state, amount: major(drift.ours.amount) },
    psp: { state: drift.psp.state, amount: major(drift.psp.amount) },
    repair: drift.repair ? { action: drift.repair.action, amount: major(drift.repair.amount) } : null,
    repaired: drift.repaired ?? null,
  };
}

export function reportView(report: ReconcileReport): ReconcileReportView {
  return {
    since: report.since.toISOString(),
    merchant_id: report.merchantId,
    checked: report.checked,
    unchecked: report.unchecked.map((u) => ({ session_id: u.sessionId, reference: u.reference, reason: u.reason })),
    drift: report.drift.map(driftView),
  };
}

/** Drift a repair did not fix (none asked, none possible, or it failed): what is left for a person. */
export const driftLeft = (report: ReconcileReportView): DriftView[] => report.drift.filter((d) => !d.repaired?.done);
