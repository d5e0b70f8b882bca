/**
 * `gateway payments reconcile`: our payments of a period compared with the PSP's objects
 * (settlement/reconciliation/), the drift listed, and with --repair fixed through the payment
 * operations. Exit codes: 0 nothing left to look at; 2 drift left (listed; with --repair, what
 * could not be repaired); 1 an error (one line on stderr).
 */
import { CommanderError, type Command } from 'commander';
import { currencyExponent } from '../../kernel/money/currency-exponents.js';
import { driftLeft, reportView } from '../../settlement/reconciliation/report-view.js';
import { requireMerchants } from '../merchants-exist.js';
import { err, out, result, UsageError } from '../output.js';
import { table } from '../table.js';
import { withDatabase } from '../with-database.js';

/** Days looked back without --since: longer than Stripe keeps an uncaptured authorization (7 days). */
export const DEFAULT_RECONCILE_DAYS = 30;

/** `--since 2026-12-01`: the start of that day, UTC; a real date, not in the future. */
export function sinceDate(raw: string, now = new Date()): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== raw) throw new UsageError(`--since must be a date as YYYY-MM-DD, like 2026-12-01; got ${JSON.stringify(raw)}`);
  if (date > now) throw new UsageError(`--since ${raw} is in the future`);
  return date;
}

export function paymentsCommand(program: Command): void {
  const payments = program.command('payments').description("money at the payment provider: compare it with our orders");
  payments
    .command('reconcile')
    .description("compare orders (and sessions that hold a payment) with the payment provider's objects; list the drift, and with --repair fix it (capture, cancel, refund, record a refund made elsewhere)")
    .option('--since <YYYY-MM-DD>', `payments of sessions or orders from that day on (UTC; default: the last ${DEFAULT_RECONCILE_DAYS} days)`, (raw: string) => sinceDate(raw))
    .option('--merchant <id>', "only this merchant's (default: every merchant's)")
    .option('--repair', 'repair what can be repaired, each through a payment operation (recorded before the provider is asked)')
    .action(async (options: { since?: Date; merchant?: string; repair?: boolean }) => {
      const since = options.since ?? new Date(Date.now() - DEFAULT_RECONCILE_DAYS * 86_400_000);
      const report = reportView(
        await withDatabase(async (_db, services) => {
          if (options.merchant !== undefined) await requireMerchants(services, [options.merchant]);
          return services.reconciliation.reconcile({ since, repair: options.repair === true, ...(options.merchant !== undefined ? { merchantId: options.merchant } : {}) });
        }),
      );
      result(report, () => {
        out(`${report.checked} payment(s) compared since ${report.since.slice(0, 10)}${report.merchant_id ? ` for ${report.merchant_id}` : ''}: ${report.drift.length} drift`);
        if (report.drift.length > 0) {
          const money = (amount: number, currency: string) => amount.toFixed(currencyExponent(currency));
          table(
            ['KIND', 'ORDER', 'REFERENCE', 'OURS', 'PSP', 'REPAIR'],
            report.drift.map((d) => [
              d.kind,
              d.order_id ?? `(session ${d.session_id})`,
              d.reference,
              `${d.ours.state} ${money(d.ours.amount, d.currency)} ${d.currency}`,
              `${d.psp.state} ${money(d.psp.amount, d.currency)} ${d.currency}`,
              !d.repair ? 'review' : !d.repaired ? `${d.repair.action} ${money(d.repair.amount, d.currency)} (--repair)` : `${d.repair.action}: ${d.repaired.done ? 'done' : 'failed'} (${d.repaired.detail})`,
            ]),
          );
        }
        for (const u of report.unchecked) out(`not compared: ${u.reference} (session ${u.session_id}): ${u.reason}`);
      });
      const left = driftLeft(report);
      if (left.length > 0) {
        err(`${left.length} drift left to look at${options.repair ? '' : ' (--repair fixes those with a repair)'}`);
        throw new CommanderError(2, 'payments.drift', 'drift left');
      }
    });
}
