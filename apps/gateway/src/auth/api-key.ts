/**
 * API keys: `sk_<env>_` + 32 random base62 characters (≈190 bits). Only the
 * SHA-256 digest is stored; at that entropy a fast hash is the right one
 * (as for Stripe's and GitHub's tokens), and lookups stay O(1).
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { GatewayEnv } from '../config/config.js';
import { randomBase62 } from '../kernel/ids.js';

export const KEY_PREFIX: Record<GatewayEnv, string> = {
  development: 'sk_dev_',
  sandbox: 'sk_sandbox_',
  production: 'sk_live_',
};

const KEY_PATTERN = /^sk_(dev|sandbox|live)_[0-9A-Za-z]{32}$/;

export function generateApiKey(env: GatewayEnv): string {
  return KEY_PREFIX[env] + randomBase62(32);
}

/** The environment a well-formed key belongs to, or undefined for anything malformed. */
export function keyEnvironment(key: string): GatewayEnv | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  return ({ dev: 'development', sandbox: 'sandbox', live: 'production' } as const)[match[1] as 'dev' | 'sandbox' | 'live'];
}

export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex'); // one call: a Hash object per request cost twice as much
}

/** Constant-time equality of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
