/** How a merchant is paid: its Stripe connected account, shown and set as `gateway merchants payments` does. */
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { MerchantPaymentAccounts, MerchantPayments } from '../../merchants/merchant-payment-accounts.js';
import { auditTarget } from '../operator-context.js';
import { pathParam } from './page-params.js';

const paymentsWire = (payments: MerchantPayments) => ({ merchant_id: payments.merchantId, stripe_account_id: payments.stripeAccountId });

export function merchantPaymentOperations(accounts: MerchantPaymentAccounts): OperationHandlers {
  return {
    getMerchantPayments: async (req, res) => {
      res.json(paymentsWire(await accounts.show(pathParam(req, 'merchant_id'))));
    },
    setMerchantPayments: async (req, res) => {
      const merchantId = pathParam(req, 'merchant_id');
      const { stripe_account_id: account } = req.body as { stripe_account_id: string | null };
      auditTarget(req, account ?? 'none', merchantId);
      res.json(paymentsWire(await accounts.set(merchantId, account)));
    },
  };
}
