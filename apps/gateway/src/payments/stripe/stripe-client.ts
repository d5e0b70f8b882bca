/**
 * The official `stripe` client as the adapter uses it: the platform's secret key, a timeout a
 * checkout can wait for (Stripe's default is 80 s), and the client's own retries of connection
 * errors, 409s and 5xx with the same Idempotency-Key (so a retried POST moves money once).
 * `apiUrl` points it elsewhere than api.stripe.com (stripe-mock or the test double).
 */
import Stripe from 'stripe';

export interface StripeClientSettings {
  secretKey: string;
  /** e.g. http://127.0.0.1:12111; undefined: Stripe's API. */
  apiUrl?: string;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

export const STRIPE_TIMEOUT_MS = 20_000;
export const STRIPE_NETWORK_RETRIES = 2;

export function stripeClient({ secretKey, apiUrl, timeoutMs = STRIPE_TIMEOUT_MS, maxNetworkRetries = STRIPE_NETWORK_RETRIES }: StripeClientSettings): Stripe {
  const target = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(secretKey, {
    timeout: timeoutMs,
    maxNetworkRetries,
    appInfo: { name: 'commerce-gateway' },
    telemetry: false,
    ...(target
      ? {
          host: target.hostname,
          port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
          protocol: target.protocol === 'https:' ? ('https' as const) : ('http' as const),
        }
      : {}),
  });
}
