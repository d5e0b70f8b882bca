/**
 * The payment provider a gateway runs with, by name (`PAYMENT_PROVIDER`). A PSP adapter is added
 * here: a folder `payment/<psp>/` with a class implementing PaymentProvider, and one case below.
 */
import type { GatewayEnv } from '../../config/config.js';
import type { PaymentProvider } from './payment-provider.js';
import { TestPaymentProvider } from './test-payment-provider.js';
import { UnconfiguredPaymentProvider } from './unconfigured-payment-provider.js';

export const PAYMENT_PROVIDERS = ['test', 'none'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** `test` in development and sandbox, `none` (refuses to take payments) in production. */
export function defaultPaymentProvider(env: GatewayEnv): PaymentProviderName {
  return env === 'production' ? 'none' : 'test';
}

export function paymentProvider(name: PaymentProviderName, env: GatewayEnv): PaymentProvider {
  switch (name) {
    case 'test':
      if (env === 'production') throw new Error('the test payment provider takes no real money and is refused in production');
      return new TestPaymentProvider(env === 'development' ? 'sandbox' : env);
    case 'none':
      return new UnconfiguredPaymentProvider();
  }
}
