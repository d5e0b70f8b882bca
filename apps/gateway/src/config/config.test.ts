import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has embedded defaults', () => {
    expect(loadConfig({})).toMatchObject({
      env: 'development',
      host: '127.0.0.1',
      port: 8080,
      dataDir: '.data',
      databaseUrl: undefined,
      searchEngine: 'embedded',
      redisUrl: undefined,
      allowedOrigins: undefined,
      webhookAllowPrivateTargets: true,
      basicAuth: true,
      logLevel: 'info',
    });
  });

  it('allows private webhook targets by default only in development', () => {
    expect(loadConfig({ GATEWAY_ENV: 'sandbox' }).webhookAllowPrivateTargets).toBe(false);
    expect(loadConfig({ GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'https://gw.example', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhookAllowPrivateTargets).toBe(true);
  });

  it('reads the tax table and flat shipping as set (checkout’s pricing keeps the contract’s defaults for the rest: default-pricing.test.ts)', () => {
    expect(loadConfig({}).pricing).toEqual({});
    expect(loadConfig({ TAX_RATES: 'us-ca=0.0725, GB=0.2', SHIPPING_FREE_FROM: 'never' }).pricing).toEqual({
      taxRates: { 'US-CA': 0.0725, GB: 0.2 },
      shipping: { freeFrom: null },
    });
    expect(loadConfig({ SHIPPING_FLAT_RATE: '0' }).pricing).toEqual({ shipping: { rate: 0 } });
  });

  it('sizes the pool, switches the webhook worker and reads a retry schedule', () => {
    expect(loadConfig({})).toMatchObject({ databasePoolSize: 10, databasePreparedStatements: true, webhookWorker: true, webhookRetrySchedule: undefined });
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false' }).databasePreparedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'sometimes' })).toThrow(/^DATABASE_PREPARED_STATEMENTS="sometimes" is not a boolean/);
    expect(loadConfig({ DATABASE_POOL_SIZE: '4', WEBHOOK_WORKER: 'off', WEBHOOK_RETRY_SCHEDULE: '0, 500ms,2s,1.5m,1h' })).toMatchObject({
      databasePoolSize: 4,
      webhookWorker: false,
      webhookRetrySchedule: [0, 500, 2_000, 90_000, 3_600_000],
    });
  });

  it('limits failed authentications per address by default (30 a minute), trusting no proxy', () => {
    expect(loadConfig({})).toMatchObject({ authFailureLimit: 30, authFailureWindowMs: 60_000, trustProxy: 0 });
    expect(loadConfig({ AUTH_FAILURE_LIMIT: '0', AUTH_FAILURE_WINDOW: '300', TRUST_PROXY: '1' })).toMatchObject({
      authFailureLimit: 0,
      authFailureWindowMs: 300_000,
      trustProxy: 1,
    });
  });

  it('limits /readyz and /metrics to 300 a minute per address, and guards /metrics with a token when one is set', () => {
    expect(loadConfig({})).toMatchObject({ opsRateLimit: 300, metricsToken: undefined });
    expect(loadConfig({ OPS_RATE_LIMIT: '0', METRICS_TOKEN: 'scrape-me-0123456789' })).toMatchObject({ opsRateLimit: 0, metricsToken: 'scrape-me-0123456789' });
    expect(() => loadConfig({ OPS_RATE_LIMIT: '-1' })).toThrow(/^OPS_RATE_LIMIT="-1" is not an integer/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be 16-256 visible ASCII characters');
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it 0123' })).toThrow(/METRICS_TOKEN/);
  });

  it('reads a list of allowed origins', () => {
    expect(loadConfig({ ALLOWED_ORIGINS: 'https://a.example, http://localhost:3000' }).allowedOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
  });

  it.each([
    [{ GATEWAY_ENV: 'staging' }, /^GATEWAY_ENV="staging" is not one of development, sandbox, production$/],
    [{ PORT: 'eighty' }, /^PORT=/],
    [{ PORT: '70000' }, /^PORT=/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must use postgres/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL is not a valid URL$/],
    [{ SEARCH_ENGINE: 'elastic' }, /^SEARCH_ENGINE=/],
    [{ TAX_RATES: 'US-CA:0.07' }, /^TAX_RATES has "US-CA:0.07"; write entries like US-CA=0.0725/],
    [{ TAX_RATES: 'GB=20' }, /^TAX_RATES has "GB=20"/],
    [{ SHIPPING_FLAT_RATE: '-1' }, /^SHIPPING_FLAT_RATE=/],
    [{ SHIPPING_FREE_FROM: 'soon' }, /^SHIPPING_FREE_FROM=/],
    [{ SEARCH_ENGINE: 'meilisearch' }, /^SEARCH_ENGINE=meilisearch needs MEILISEARCH_URL$/],
    [{ REDIS_URL: 'http://x' }, /^REDIS_URL must use redis/],
    [{ ALLOWED_ORIGINS: 'https://a.example/path' }, /^ALLOWED_ORIGINS has "https:\/\/a.example\/path"/],
    [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' }, /^WEBHOOK_ALLOW_PRIVATE_TARGETS=/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL=/],
    [{ DATABASE_POOL_SIZE: '0' }, /^DATABASE_POOL_SIZE="0" is not an integer from 1 to 1000$/],
    [{ DATABASE_POOL_SIZE: 'many' }, /^DATABASE_POOL_SIZE=/],
    [{ WEBHOOK_WORKER: 'sometimes' }, /^WEBHOOK_WORKER=/],
    [{ WEBHOOK_RETRY_SCHEDULE: '0,5 sec' }, /^WEBHOOK_RETRY_SCHEDULE has "5 sec"/],
    [{ AUTH_FAILURE_LIMIT: '-1' }, /^AUTH_FAILURE_LIMIT=/],
    [{ AUTH_FAILURE_LIMIT: 'many' }, /^AUTH_FAILURE_LIMIT=/],
    [{ AUTH_FAILURE_WINDOW: '0' }, /^AUTH_FAILURE_WINDOW=/],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY=/],
  ])('refuses %o with one line naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
