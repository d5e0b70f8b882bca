/**
 * Request signing (SPEC.md "Request signing"): `Signature` is the base64
 * HMAC-SHA256 of the raw body bytes (empty for a body-less request), keyed with
 * the key's signing secret; `Timestamp` (RFC 3339) must be within ±5 minutes.
 * The digest does not cover the timestamp, so a captured request can be
 * replayed inside the window: idempotency keys are the defence.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_WINDOW_SECONDS = 300;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

export type SignatureProblem = 'missing_signature' | 'missing_timestamp' | 'malformed_timestamp' | 'stale_timestamp' | 'mismatch';

export function signBody(body: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/** undefined when the signature holds; else what is wrong with it. */
export function checkSignature(
  body: Uint8Array,
  signature: string | undefined,
  timestamp: string | undefined,
  secret: string,
  nowMs: number = Date.now(),
): SignatureProblem | undefined {
  if (!signature) return 'missing_signature';
  if (!timestamp) return 'missing_timestamp';
  if (!RFC3339.test(timestamp.trim())) return 'malformed_timestamp';
  const at = Date.parse(timestamp.trim());
  if (Number.isNaN(at)) return 'malformed_timestamp';
  if (Math.abs(nowMs - at) > SIGNATURE_WINDOW_SECONDS * 1000) return 'stale_timestamp';
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(signature.trim(), 'base64');
  const ok = given.length === expected.length && timingSafeEqual(given, expected);
  return ok ? undefined : 'mismatch';
}
