/** A merchant's payments compared with the payment provider, and their drift repaired: what `gateway payments reconcile --merchant` runs. */
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { ReconciliationService } from '../../settlement/reconciliation/reconciliation-service.js';
import { reportView } from '../../settlement/reconciliation/report-view.js';
import type { MerchantService } from '../../merchants/merchant-service.js';
import { auditTarget } from '../operator-context.js';
import { existingMerchant } from './existing-merchant.js';

/** As the CLI: the last 30 days unless `since` says otherwise. */
const DEFAULT_DAYS = 30;

export function paymentReconcileOperations(reconciliation: ReconciliationService, merchants: Pick<MerchantService, 'exists'>): OperationHandlers {
  return {
    reconcilePayments: async (req, res) => {
      const merchantId = await existingMerchant(req, merchants);
      const body = (req.body ?? {}) as { since?: string; repair?: boolean };
      const repair = body.repair === true;
      auditTarget(req, repair ? 'repair' : 'list', merchantId);
      const since = body.since ? new Date(`${body.since}T00:00:00.000Z`) : new Date(Date.now() - DEFAULT_DAYS * 86_400_000);
      res.json(reportView(await reconciliation.reconcile({ since, merchantId, repair })));
    },
  };
}
