import { describe, expect, it } from 'vitest';
import { digestsEqual, generateApiKey, hashApiKey, keyEnvironment } from './api-key.js';

describe('API keys', () => {
  it.each([
    ['development', /^sk_dev_[0-9A-Za-z]{32}$/],
    ['sandbox', /^sk_sandbox_[0-9A-Za-z]{32}$/],
    ['production', /^sk_live_[0-9A-Za-z]{32}$/],
  ] as const)('makes %s keys with their prefix', (env, pattern) => {
    const key = generateApiKey(env);
    expect(key).toMatch(pattern);
    expect(keyEnvironment(key)).toBe(env);
  });

  it('never makes the same key twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('development')));
    expect(keys.size).toBe(1000);
  });

  it.each(['', 'sk_dev_short', 'pk_dev_' + 'a'.repeat(32), 'sk_test_' + 'a'.repeat(32), 'sk_dev_' + 'a'.repeat(31) + '!'])(
    'calls %j malformed',
    (key) => {
      expect(keyEnvironment(key)).toBeUndefined();
    },
  );

  it('stores a digest, compared in constant time', () => {
    const key = generateApiKey('sandbox');
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(11));
    expect(digestsEqual(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(digestsEqual(hashApiKey(key), hashApiKey(generateApiKey('sandbox')))).toBe(false);
  });
});
