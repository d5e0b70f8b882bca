/**
 * PAYMENT_PROVIDER=stripe's settings: the platform's secret key, the webhook endpoint's signing
 * secret, and (for tests only) another API address. Missing or malformed, start-up stops with one
 * line naming the setting (ConfigError). A test-mode key takes no real money and is refused in
 * production; a live key is refused outside it, so a development machine never charges a card.
 */
import { ConfigError } from './config-error.js';

export interface StripeSettings {
  /** STRIPE_SECRET_KEY: `sk_live_…`/`rk_live_…` (production) or `sk_test_…`/`rk_test_…`. */
  stripeSecretKey: string;
  /** STRIPE_WEBHOOK_SECRET: `whsec_…`, what Stripe signs the platform's webhook events with. */
  stripeWebhookSecret: string;
  /** STRIPE_API_URL: where Stripe's API is asked instead of api.stripe.com (stripe-mock, the tests' double); never in production. */
  stripeApiUrl: string | undefined;
}

type Env = Record<string, string | undefined>;

const KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,247}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{8,250}$/;

export function stripeSettings(env: Env, gatewayEnv: 'development' | 'sandbox' | 'production'): StripeSettings {
  const key = env.STRIPE_SECRET_KEY?.trim();
  if (!key) throw new ConfigError('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY, the platform\'s secret key (sk_live_… in production, sk_test_… elsewhere; docs/payments.md)');
  const match = KEY.exec(key);
  if (!match) throw new ConfigError('STRIPE_SECRET_KEY is not a Stripe secret key: give the platform\'s sk_live_…, sk_test_… (or a restricted rk_…) key from the Dashboard\'s API keys');
  if (match[2] === 'test' && gatewayEnv === 'production') {
    throw new ConfigError('STRIPE_SECRET_KEY is a test-mode key, which takes no real money, and is refused with GATEWAY_ENV=production: give the live key (sk_live_…)');
  }
  if (match[2] === 'live' && gatewayEnv !== 'production') {
    throw new ConfigError(`STRIPE_SECRET_KEY is a live key, refused with GATEWAY_ENV=${gatewayEnv} so that no real card is charged: give a test-mode key (sk_test_…)`);
  }
  const secret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secret) throw new ConfigError('PAYMENT_PROVIDER=stripe needs STRIPE_WEBHOOK_SECRET, the signing secret (whsec_…) of the webhook endpoint POST /payments/stripe/webhooks');
  if (!WEBHOOK_SECRET.test(secret)) throw new ConfigError('STRIPE_WEBHOOK_SECRET is not a webhook signing secret: give the endpoint\'s whsec_… from the Dashboard (or `stripe listen`)');
  return { stripeSecretKey: key, stripeWebhookSecret: secret, stripeApiUrl: apiUrl(env, gatewayEnv) };
}

function apiUrl(env: Env, gatewayEnv: string): string | undefined {
  const raw = env.STRIPE_API_URL?.trim();
  if (!raw) return undefined;
  if (gatewayEnv === 'production') throw new ConfigError('STRIPE_API_URL is for tests (stripe-mock, a test double) and is refused with GATEWAY_ENV=production: unset it');
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('STRIPE_API_URL is not a URL: give the address of stripe-mock or the test double, e.g. http://127.0.0.1:12111');
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || parsed.pathname !== '/' || parsed.search || parsed.username) {
    throw new ConfigError('STRIPE_API_URL must be an http(s) origin without a path, e.g. http://127.0.0.1:12111');
  }
  return parsed.origin;
}
