/**
 * The payment provider a gateway runs with, by name (`PAYMENT_PROVIDER`). A PSP adapter is added
 * here: a folder `<psp>/` with a class implementing PaymentProvider, one case below, and its
 * name in config's PAYMENT_PROVIDERS.
 */
import type { GatewayEnv, PaymentProviderName } from '../config/config.js';
import type { StripeSettings } from '../config/stripe-settings.js';
import type { PaymentProvider } from './payment-provider.js';
import { stripeClient } from './stripe/stripe-client.js';
import { StripePaymentProvider, type StripeAccountLookup } from './stripe/stripe-payment-provider.js';
import { TestPaymentProvider } from './test-payment-provider.js';
import { UnconfiguredPaymentProvider } from './unconfigured-payment-provider.js';

/** What a PSP adapter needs beyond its name: its settings and the merchants' accounts with it. */
export interface PaymentProviderOptions {
  /** PAYMENT_PROVIDER=stripe: the platform's key and (tests) the API's address. */
  stripe?: Partial<Pick<StripeSettings, 'stripeSecretKey' | 'stripeApiUrl'>>;
  /** Each merchant's Stripe connected account (merchants/merchant-payment-accounts.ts, cached). */
  stripeAccounts?: StripeAccountLookup;
}

export function paymentProvider(name: PaymentProviderName, env: GatewayEnv, options: PaymentProviderOptions = {}): PaymentProvider {
  switch (name) {
    case 'test':
      if (env === 'production') throw new Error('the test payment provider takes no real money and is refused in production');
      return new TestPaymentProvider(env === 'development' ? 'sandbox' : env);
    case 'stripe': {
      const secretKey = options.stripe?.stripeSecretKey;
      if (!secretKey) throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY');
      if (!options.stripeAccounts) throw new Error('the Stripe provider needs the merchants\' Stripe accounts');
      const client = stripeClient({ secretKey, ...(options.stripe?.stripeApiUrl ? { apiUrl: options.stripe.stripeApiUrl } : {}) });
      return new StripePaymentProvider(client, options.stripeAccounts, /_live_/.test(secretKey) ? 'production' : 'sandbox');
    }
    case 'none':
      return new UnconfiguredPaymentProvider();
  }
}
