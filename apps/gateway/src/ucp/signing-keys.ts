/**
 * The business's signing keys, whose public halves the UCP profile publishes in `signing_keys`
 * (overview.md "Key Discovery"; signatures.md: ES256 on P-256). UCP_SIGNING_KEY (a PEM or JWK
 * private key, checked by config.ts) when set; otherwise, in development and sandbox, a key pair
 * generated when the process starts, so that signing works out of the box — it changes at every
 * restart and differs between replicas; in production without the setting, no key is published
 * (and nothing will be signed). Persisted, rotatable keys — several published at once while one
 * signs — come with the order webhooks that need them.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { GatewayEnv } from '../config/config.js';

/** A public key as the profile's `signing_keys` lists it. */
export interface PublicSigningJwk {
  kid: string;
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  use: 'sig';
  alg: 'ES256';
}

export interface SigningKeys {
  /** What the profile publishes (empty: no key). */
  published: PublicSigningJwk[];
  /** The key this process signs with, and its `kid`; undefined when none is published. */
  signer?: { kid: string; privateKey: KeyObject };
  /** Where the key came from, for the start-up log. */
  source: 'setting' | 'generated' | 'none';
}

/** RFC 7638 JWK thumbprint (SHA-256, base64url) of an EC public key: a `kid` that names the key itself. */
export function thumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

function parsePrivateKey(raw: string): KeyObject {
  return raw.startsWith('{') ? createPrivateKey({ key: JSON.parse(raw) as JsonWebKey, format: 'jwk' }) : createPrivateKey(raw.replace(/\\n/g, '\n'));
}

function keysOf(privateKey: KeyObject, source: SigningKeys['source']): SigningKeys {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const { x, y } = jwk as { x: string; y: string };
  const kid = thumbprint({ crv: 'P-256', kty: 'EC', x, y });
  return { published: [{ kid, kty: 'EC', crv: 'P-256', x, y, use: 'sig', alg: 'ES256' }], signer: { kid, privateKey }, source };
}

export function loadSigningKeys(options: { signingKey: string | undefined; env: GatewayEnv }): SigningKeys {
  if (options.signingKey) return keysOf(parsePrivateKey(options.signingKey), 'setting');
  if (options.env === 'production') return { published: [], source: 'none' };
  return keysOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'generated');
}
