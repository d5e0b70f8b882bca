import { fail } from './messages.js';
import { kindOf } from './payload.js';
import type { SignOptions, VerifyOptions, WebhookSecret } from './types.js';

export const DEFAULT_TOLERANCE = 300;

/** One or more non-empty secrets, else `invalid_secret`. */
export function secretList(secret: WebhookSecret): readonly string[] {
  const list: readonly unknown[] = Array.isArray(secret) ? secret : [secret];
  if (list.length === 0) throw fail.invalidSecret('an empty list');
  for (const s of list) {
    if (typeof s !== 'string') throw fail.invalidSecret(kindOf(s));
    if (s === '') throw fail.invalidSecret('empty');
  }
  return list as readonly string[];
}

/** The `t` to sign with: `options.timestamp` or now, in whole seconds. */
export function signingTime(options: SignOptions | undefined): number {
  const timestamp = options?.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp must be whole Unix seconds, got ${String(timestamp)}`);
  }
  return timestamp;
}

/** Validates `tolerance` and `now` up front, so a misconfiguration fails on the first call, not the first late delivery. */
export function checkVerifyOptions(options: VerifyOptions | undefined): void {
  const tolerance = options?.tolerance ?? DEFAULT_TOLERANCE;
  if (typeof tolerance !== 'number' || !(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new RangeError(`tolerance must be a number of seconds ≥ 0, got ${String(tolerance)}`);
  }
  if (options?.now !== undefined && typeof options.now !== 'function') {
    throw new TypeError('now must be a function returning milliseconds, like Date.now');
  }
}

/** Refuses a `t` further than the tolerance from now, in the past or in the future. */
export function assertFresh(timestamp: number, options: VerifyOptions | undefined): void {
  const tolerance = options?.tolerance ?? DEFAULT_TOLERANCE;
  const now = Math.floor((options?.now ?? Date.now)() / 1000);
  if (now - timestamp > tolerance) throw fail.tooOld(now - timestamp, tolerance);
  if (timestamp - now > tolerance) throw fail.tooNew(timestamp - now, tolerance);
}
