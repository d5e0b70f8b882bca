import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const STRIPE = { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51Abcdefghijklmnop', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefghijklmnop' };
const PRODUCTION = { GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'https://gateway.shop.example' };

/** The one line start-up stops with. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the settings were accepted');
}

describe('Stripe settings', () => {
  it('reads the key, the webhook secret and the API address of tests', () => {
    expect(loadConfig({ ...STRIPE, STRIPE_API_URL: 'http://127.0.0.1:12111/' })).toMatchObject({
      paymentProvider: 'stripe',
      stripeSecretKey: 'sk_test_51Abcdefghijklmnop',
      stripeWebhookSecret: 'whsec_abcdefghijklmnop',
      stripeApiUrl: 'http://127.0.0.1:12111',
    });
    expect(loadConfig({ ...PRODUCTION, ...STRIPE, STRIPE_SECRET_KEY: 'sk_live_51Abcdefghijklmnop' }).stripeApiUrl).toBeUndefined();
  });

  it('ignores the Stripe settings under another provider', () => {
    expect(loadConfig({ STRIPE_SECRET_KEY: 'nonsense' }).stripeSecretKey).toBeUndefined();
  });

  it.each([
    ['a missing key', { STRIPE_SECRET_KEY: '' }, /^PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY/],
    ['a malformed key', { STRIPE_SECRET_KEY: 'pk_test_51Abcdefghijklmnop' }, /^STRIPE_SECRET_KEY is not a Stripe secret key/],
    ['a live key outside production', { STRIPE_SECRET_KEY: 'sk_live_51Abcdefghijklmnop' }, /^STRIPE_SECRET_KEY is a live key, refused with GATEWAY_ENV=development/],
    ['a missing webhook secret', { STRIPE_WEBHOOK_SECRET: '' }, /^PAYMENT_PROVIDER=stripe needs STRIPE_WEBHOOK_SECRET/],
    ['a malformed webhook secret', { STRIPE_WEBHOOK_SECRET: 'secret' }, /^STRIPE_WEBHOOK_SECRET is not a webhook signing secret/],
    ['an API address that is no URL', { STRIPE_API_URL: 'localhost:12111' }, /^STRIPE_API_URL is not a URL|^STRIPE_API_URL must be/],
    ['an API address with a path', { STRIPE_API_URL: 'http://127.0.0.1:12111/v1' }, /^STRIPE_API_URL must be an http\(s\) origin/],
  ])('refuses %s in one line naming the setting', (_case, change, message) => {
    const line = refusal({ ...STRIPE, ...change });
    expect(line).toMatch(message);
    expect(line).not.toContain('\n');
  });

  it('refuses a test-mode key and an API address override in production', () => {
    expect(refusal({ ...PRODUCTION, ...STRIPE })).toMatch(/^STRIPE_SECRET_KEY is a test-mode key/);
    expect(refusal({ ...PRODUCTION, ...STRIPE, STRIPE_SECRET_KEY: 'sk_live_51Abcdefghijklmnop', STRIPE_API_URL: 'http://127.0.0.1:1' })).toMatch(/^STRIPE_API_URL is for tests/);
  });
});
