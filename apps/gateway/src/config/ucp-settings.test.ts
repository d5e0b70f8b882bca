import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('UCP settings', () => {
  it('describes the newest release by default, or the one UCP_VERSION names; refuses any other in one line', () => {
    expect(loadConfig({}).ucpVersion).toBe('2026-04-08');
    expect(loadConfig({ UCP_VERSION: '2026-01-11' }).ucpVersion).toBe('2026-01-11');
    const message = refusal({ UCP_VERSION: '2026-01-12' });
    expect(message).toBe('UCP_VERSION="2026-01-12" is not one of 2026-01-11, 2026-04-08');
    expect(message).not.toContain('\n');
  });

  it('takes UCP_SIGNING_KEY as a PEM or a JWK of an EC P-256 private key', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const jwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
    expect(loadConfig({ UCP_SIGNING_KEY: pem }).ucpSigningKey).toBe(pem.trim());
    expect(loadConfig({ UCP_SIGNING_KEY: pem.replace(/\n/g, '\\n') }).ucpSigningKey).toBeDefined(); // one-line form, as in a .env file
    expect(loadConfig({ UCP_SIGNING_KEY: jwk }).ucpSigningKey).toBe(jwk);
    expect(loadConfig({}).ucpSigningKey).toBeUndefined();
  });

  it('refuses a UCP_SIGNING_KEY that is not a private P-256 key, naming the setting', () => {
    expect(refusal({ UCP_SIGNING_KEY: 'not a key' })).toMatch(/^UCP_SIGNING_KEY is not a private key/);
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    expect(refusal({ UCP_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() })).toMatch(/^UCP_SIGNING_KEY must be an EC P-256 key/);
    expect(refusal({ UCP_SIGNING_KEY: JSON.stringify(publicKey.export({ format: 'jwk' })) })).toMatch(/^UCP_SIGNING_KEY is not a private key/);
  });
});
