import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/errors.js';
import { environmentOfKey, resolveEnvironment } from './environment.js';

describe('environmentOfKey', () => {
  it.each([
    ['sk_dev_abc', 'development'],
    ['sk_sandbox_abc', 'sandbox'],
    ['sk_live_abc', 'production'],
    ['pk_live_abc', undefined],
    ['sk_test_abc', undefined],
  ])('%s → %s', (key, env) => {
    expect(environmentOfKey(key)).toBe(env);
  });
});

describe('resolveEnvironment', () => {
  it('infers the environment from the key when none is given', () => {
    expect(resolveEnvironment('sk_sandbox_abc', undefined)).toBe('sandbox');
  });

  it('accepts an environment that matches the key', () => {
    expect(resolveEnvironment('sk_live_abc', 'production')).toBe('production');
  });

  it.each([
    ['sk_live_abc', 'sandbox', /apiKey is a production key \(sk_live_…\) but environment is "sandbox", whose keys start with sk_sandbox_/],
    ['sk_dev_abc', 'production', /apiKey is a development key \(sk_dev_…\) but environment is "production"/],
    ['sk_dev_abc', 'staging', /Unknown environment "staging": use one of development, sandbox, production/],
    ['sk_dev_abc', 'live', /Unknown environment "live"/],
    ['pk_abc', undefined, /must start with sk_dev_… \(development\), sk_sandbox_… \(sandbox\), sk_live_… \(production\)/],
  ])('refuses key %s with environment %s', (key, env, message) => {
    expect(() => resolveEnvironment(key, env)).toThrow(ConfigurationError);
    expect(() => resolveEnvironment(key, env)).toThrow(message);
  });

  it('never repeats the key in its messages', () => {
    expect(() => resolveEnvironment('sk_live_SECRET123', 'sandbox')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('SECRET123') }));
  });
});
