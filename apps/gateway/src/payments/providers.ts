/**
 * The payment provider a gateway runs with, by name (`PAYMENT_PROVIDER`). A PSP adapter is added
 * here: a folder `<psp>/` with a class implementing PaymentProvider, one case below, and its
 * name in config's PAYMENT_PROVIDERS.
 */
import type { GatewayEnv, PaymentProviderName } from '../config/config.js';
import type { PaymentProvider } from './payment-provider.js';
import { TestPaymentProvider } from './test-payment-provider.js';
import { UnconfiguredPaymentProvider } from './unconfigured-payment-provider.js';

export function paymentProvider(name: PaymentProviderName, env: GatewayEnv): PaymentProvider {
  switch (name) {
    case 'test':
      if (env === 'production') throw new Error('the test payment provider takes no real money and is refused in production');
      return new TestPaymentProvider(env === 'development' ? 'sandbox' : env);
    case 'none':
      return new UnconfiguredPaymentProvider();
  }
}
