/**
 * Which Stripe connected account each merchant is paid into (merchants.stripe_account_id), set by
 * operators (admin API, CLI, console) and read by the Stripe provider on every checkout through a
 * cache that every gateway drops when the account changes (NOTIFY merchant_payments_changed), so
 * that offering a merchant's payment handlers queries nothing per request.
 *
 *   await accounts.cache.listen(db);   // server start: hold accounts while changes are heard
 *   await accounts.set('shop', 'acct_1Nv0FGQ9RKHgCVdK'); await accounts.stripeAccount('shop');
 */
import { MerchantCache } from '../db/merchant-cache.js';
import { InvalidRequestError, NotFoundError } from '../kernel/errors.js';
import { MERCHANT_PAYMENTS_CHANNEL, type MerchantStore } from './merchant-store.js';

/** A Stripe account id as Stripe gives it: `acct_` and letters and digits. */
const STRIPE_ACCOUNT = /^acct_[A-Za-z0-9]{6,64}$/;
export const isStripeAccountId = (id: string): boolean => STRIPE_ACCOUNT.test(id);

export interface MerchantPayments {
  merchantId: string;
  stripeAccountId: string | null;
}

export class MerchantPaymentAccounts {
  /** Accounts by merchant (null: none) while changes are heard; `cache.listen(db)` starts holding them. */
  readonly cache: MerchantCache<string | null>;

  constructor(private readonly store: MerchantStore) {
    this.cache = new MerchantCache(MERCHANT_PAYMENTS_CHANNEL, async (merchantId) => (await store.stripeAccount(merchantId)) ?? null);
  }

  /** The merchant's connected account (cached), null when it has none or there is no such merchant. */
  stripeAccount(merchantId: string): Promise<string | null> {
    return this.cache.get(merchantId);
  }

  /** As stored now (not cached): what operators are shown. */
  async show(merchantId: string): Promise<MerchantPayments> {
    const account = await this.store.stripeAccount(merchantId);
    if (account === undefined) throw new NotFoundError(`No merchant ${JSON.stringify(merchantId)}`, 'merchant_id');
    return { merchantId, stripeAccountId: account };
  }

  /** Connects the merchant to a Stripe account, or with null disconnects it (it then cannot take payments). */
  async set(merchantId: string, stripeAccountId: string | null): Promise<MerchantPayments> {
    if (stripeAccountId !== null && !isStripeAccountId(stripeAccountId)) {
      throw new InvalidRequestError(
        `${JSON.stringify(stripeAccountId)} is not a Stripe account id: give the connected account's acct_… (Dashboard → Connect → Accounts)`,
        'stripe_account_id',
      );
    }
    if (!(await this.store.setStripeAccount(merchantId, stripeAccountId))) throw new NotFoundError(`No merchant ${JSON.stringify(merchantId)}`, 'merchant_id');
    this.cache.forget(merchantId); // this process reads it back at once, before its NOTIFY arrives
    return { merchantId, stripeAccountId };
  }
}
