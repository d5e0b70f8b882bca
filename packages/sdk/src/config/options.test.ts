import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/errors.js';
import { DEFAULT_API_VERSION, resolveOptions } from './options.js';

describe('resolveOptions', () => {
  it('fills the defaults for a development key', () => {
    expect(resolveOptions({ apiKey: 'sk_dev_abc' })).toMatchObject({
      environment: 'development',
      baseUrl: 'http://127.0.0.1:8080',
      apiVersion: '2026-11-01',
      timeout: 30_000,
      maxRetries: 2,
      validateResponses: true,
      merchantId: undefined,
      signingSecret: undefined,
    });
  });

  it("defaults API-Version to the contract's newest version", () => {
    expect(DEFAULT_API_VERSION).toBe('2026-11-01');
  });

  it('drops trailing slashes of baseUrl and keeps a path prefix', () => {
    expect(resolveOptions({ apiKey: 'sk_dev_abc', baseUrl: 'https://gw.example.com/api/' }).baseUrl).toBe('https://gw.example.com/api');
  });

  it.each([
    [{ apiKey: '' }, /apiKey is required/],
    [{}, /apiKey is required/],
    [{ apiKey: 'sk_live_abc' }, /baseUrl is required for a production key/],
    [{ apiKey: 'sk_sandbox_abc' }, /baseUrl is required for a sandbox key/],
    [{ apiKey: 'sk_dev_abc', baseUrl: 'gw.example.com' }, /not an absolute URL/],
    [{ apiKey: 'sk_dev_abc', baseUrl: 'ftp://gw.example.com' }, /must be http:\/\/ or https:\/\//],
    [{ apiKey: 'sk_dev_abc', baseUrl: 'http://gw.example.com/?x=1' }, /must not carry a query/],
    [{ apiKey: 'sk_dev_abc', timeout: 0 }, /timeout must be a number of milliseconds/],
    [{ apiKey: 'sk_dev_abc', timeout: Number.NaN }, /timeout must be a number of milliseconds/],
    [{ apiKey: 'sk_dev_abc', maxRetries: -1 }, /maxRetries must be an integer from 0 to 10/],
    [{ apiKey: 'sk_dev_abc', maxRetries: 1.5 }, /maxRetries must be an integer/],
    [{ apiKey: 'sk_dev_abc', merchantId: ' ' }, /merchantId must be a non-empty string/],
    [{ apiKey: 'sk_dev_abc', signingSecret: '' }, /signingSecret must be a non-empty string/],
    [{ apiKey: 'sk_dev_abc', fetch: 'no' }, /fetch must be a function/],
  ])('refuses %o', (options, message) => {
    expect(() => resolveOptions(options as never)).toThrow(ConfigurationError);
    expect(() => resolveOptions(options as never)).toThrow(message);
  });
});
