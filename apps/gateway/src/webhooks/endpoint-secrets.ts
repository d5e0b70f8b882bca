/**
 * Signing secrets of an endpoint, and their rotation: a new secret replaces
 * the current one, which stays valid for an overlap (deliveries carry one
 * `v1=` per secret, newest first) so receivers can switch without losing one.
 */
import { randomBytes } from 'node:crypto';

export interface EndpointSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A fresh endpoint secret: `whsec_` and 32 random bytes, base64url. */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The secrets to sign with now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(endpoint: EndpointSecrets, now: Date = new Date()): string[] {
  const { secret, previousSecret, previousSecretExpiresAt } = endpoint;
  const previousValid = previousSecret && previousSecretExpiresAt && previousSecretExpiresAt > now;
  return previousValid ? [secret, previousSecret] : [secret];
}

/**
 * The endpoint's secrets after a rotation: a new secret, the current one kept for `overlapMs`
 * (0 = retired at once). A secret still in an earlier overlap is dropped.
 */
export function rotatedSecrets(current: EndpointSecrets, overlapMs: number, now: Date = new Date(), secret = newEndpointSecret()): EndpointSecrets {
  if (!Number.isFinite(overlapMs) || overlapMs < 0) throw new RangeError(`overlap must be ≥ 0 ms, got ${overlapMs}`);
  return overlapMs === 0
    ? { secret, previousSecret: null, previousSecretExpiresAt: null }
    : { secret, previousSecret: current.secret, previousSecretExpiresAt: new Date(now.getTime() + overlapMs) };
}
